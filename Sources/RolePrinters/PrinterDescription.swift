import Foundation
import IPP
import PrintModel
import Spooler

/// What a role printer says about itself (Get-Printer-Attributes): its
/// identity, and what its primary printer can do, read afresh for each
/// request so that a failover, a new roll or paper running out shows at
/// once.
struct PrinterDescription: Sendable {
    var role: Role
    var identity: RolePrinterIdentity
    /// The printer the role's jobs go to now; nil when none holds the role.
    var printer: SavedPrinter?
    var queuedJobs: Int
    var printing: Bool
    /// The base URI the client used, e.g. `ipp://127.0.0.1:8631`.
    var base: String

    var capabilities: PrinterCapabilities? { printer?.capabilities }
    var media: RoleMedia { RoleMedia(capabilities) }
    var printerURI: String { "\(base)/ipp/print/\(role)" }
    /// The role printer's own web page on its listener (`printer-more-info`), beside its icon.
    var pageURI: String {
        let web = base.hasPrefix("ipps:") ? "https" + base.dropFirst(4) : "http" + base.dropFirst(3)
        return "\(web)/ipp/print/\(role)"
    }

    /// `printer-supply`: the paper roll, as far as the printer says (PWG 5100.13 §6.6.2):
    /// empty, low, or there in an amount it does not tell (-3).
    var paperLevel: Int {
        let reasons = Set(stateReasons)
        if reasons.contains("media-empty") || reasons.contains("media-needed") { return 0 }
        return reasons.contains("media-low") ? 10 : -3
    }

    /// The formats a job may be sent in: the rasters and images the agent
    /// draws again for any printer, PDF where the primary prints it, and the
    /// primary's own language.
    var documentFormats: [String] {
        // PDF is listed where the printer takes it. Listed for any printer, it made ippeveselfcert's ipp-tests (v1.1)
        // ask for `overrides`, which role printers do not offer; CUPS and iOS send every other role URF, and a PDF
        // sent as application/octet-stream is drawn by Ghostscript for any printer.
        var formats = ["application/octet-stream", "image/jpeg", "image/png", "image/pwg-raster", "image/urf"]
        if capabilities?.documentFormats.contains(DocumentFormat.pdf.rawValue) == true { formats.append("application/pdf") }
        if let language = capabilities?.rawProfile?.language { formats.append(language.mimeType) }
        return formats
    }

    var resolution: IPPResolution {
        let dpi = capabilities?.resolutions.native ?? Resolution(203)
        return IPPResolution(horizontal: dpi.horizontal, vertical: dpi.vertical)
    }

    /// `finishings`: none, and the cuts the primary's knife makes.
    var finishings: [Int] { [3] + (capabilities?.trims ?? []).map(\.rawValue).sorted() }
    /// The `finishing-template` names of `finishings`.
    var finishingTemplates: [String] { finishings.map(Self.finishingName) }
    static func finishingName(_ value: Int) -> String { Trim(rawValue: value)?.description ?? "none" }
    var defaultFinishing: Int { capabilities?.trims.contains(.afterPages) == true ? Trim.afterPages.rawValue : 3 }

    /// `printer-state`: stopped while the primary needs a person or no
    /// printer holds the role; processing while a job is on its way.
    var state: Int {
        guard let capabilities else { return 5 }
        if !capabilities.attentionReasons.isEmpty || capabilities.state == .stopped { return 5 }
        return printing ? 4 : 3
    }

    var stateReasons: [String] {
        guard let capabilities else { return ["offline-report"] }
        let reasons = capabilities.stateReasons.map(\.keyword).filter { $0 != "none" }
        return reasons.isEmpty ? ["none"] : reasons
    }

    var stateMessage: String {
        guard let printer else { return "No printer holds the role \(role) yet: `kioskprint pick --role \(role)` adds one." }
        if let message = printer.capabilities.stateMessage, !message.isEmpty { return message }
        return state == 5 ? "\(printer.name) needs attention: \(stateReasons.joined(separator: ", "))." : "\(printer.name) is ready."
    }

    /// IPP's `printer-kind` keywords for what the primary prints.
    var kinds: [String] {
        let kinds = (capabilities?.kinds ?? [.receipt, .roll]).map(\.rawValue).sorted()
        return kinds.isEmpty ? ["document"] : kinds
    }

    /// Every attribute, in the groups `requested-attributes` names.
    func attributes(now: Date = Date()) -> [IPPAttribute] {
        let capabilities = capabilities
        var attributes: [IPPAttribute] = [
            // Identity
            .uri("printer-uri-supported", printerURI),
            .keyword("uri-authentication-supported", identity.requiresToken ? "basic" : "none"),
            .keyword("uri-security-supported", base.hasPrefix("ipps:") ? "tls" : "none"),
            .nameValue("printer-name", role.description),
            .text("printer-info", "\(role) at \(identity.box)"),
            .text("printer-location", capabilities?.location.isEmpty == false ? capabilities!.location : identity.box),
            .text("printer-make-and-model", "KioskPrint role printer" + (printer.map { " (\($0.name))" } ?? "")),
            .text("printer-device-id", "MFG:KioskPrint;MDL:Role Printer;CMD:\(commandSet);"),
            .uri("printer-uuid", identity.uuid(for: role)),
            .keywords("printer-kind", kinds),
            // State
            .enumeration("printer-state", state),
            .keywords("printer-state-reasons", stateReasons),
            .text("printer-state-message", stateMessage),
            .boolean("printer-is-accepting-jobs", true),
            .integer("queued-job-count", queuedJobs),
            .integer("printer-up-time", Self.seconds(now)),
            .integer("printer-state-change-time", Self.seconds(printer?.contactedAt ?? identity.startedAt)),
            .integer("printer-config-change-time", Self.seconds(identity.startedAt)),
            .dateTime("printer-current-time", now),
            .dateTime("printer-state-change-date-time", printer?.contactedAt ?? identity.startedAt),
            .dateTime("printer-config-change-date-time", identity.startedAt),
            // Protocol
            .keyword("ipp-versions-supported", "1.1", "2.0"),
            .enums("operations-supported", IPPOperation.allCases.map(\.rawValue)),
            .strings("charset-configured", .charset, ["utf-8"]),
            .strings("charset-supported", .charset, ["us-ascii", "utf-8"]),
            .strings("natural-language-configured", .naturalLanguage, ["en"]),
            .strings("generated-natural-language-supported", .naturalLanguage, ["en"]),
            .keyword("compression-supported", "none"),
            .keyword("pdl-override-supported", "attempted"),
            .boolean("job-ids-supported", true),
            .boolean("multiple-document-jobs-supported", false),
            .integer("multiple-operation-time-out", 60),
            .keyword("multiple-operation-time-out-action", "abort-job"),
            .keyword("which-jobs-supported", "completed", "not-completed", "all"),
            .keyword("identify-actions-default", "sound"),
            .keywords("identify-actions-supported", RolePrinterServer.identifyActions),
            .strings("reference-uri-schemes-supported", .uriScheme, ["http", "https"]),
            .keyword("job-creation-attributes-supported", "copies", "finishings", "ipp-attribute-fidelity", "job-name",
                     "media", "media-col", "orientation-requested", "output-bin", "page-ranges", "print-color-mode", "print-quality",
                     "printer-resolution", "sides"),
            // Documents and jobs
            .mimeTypes("document-format-default", ["application/octet-stream"]),
            .mimeTypes("document-format-supported", documentFormats),
            .integer("copies-default", 1),
            .range("copies-supported", 1...99),
            .enumeration("finishings-default", defaultFinishing),
            .enums("finishings-supported", finishings),
            .enums("finishings-ready", finishings),
            // PWG 5100.1's collection form of the same cuts, which IPP Everywhere asks of a printer that finishes.
            .keywords("finishing-template-supported", finishingTemplates),
            .collections("finishings-col-database", finishingTemplates.map { [.keyword("finishing-template", $0)] }),
            .collections("finishings-col-default", [[.keyword("finishing-template", Self.finishingName(defaultFinishing))]]),
            .collections("finishings-col-ready", finishingTemplates.map { [.keyword("finishing-template", $0)] }),
            .keyword("finishings-col-supported", "finishing-template"),
            .range("job-k-octets-supported", 0...(identity.maxDocumentBytes / 1024)),
            .integer("job-priority-default", 50),
            .integer("job-priority-supported", 1),
            .nameValue("job-sheets-default", "none"),
            .nameValue("job-sheets-supported", "none"),
            .enumeration("orientation-requested-default", 3),
            .enums("orientation-requested-supported", [3]),
            .keyword("output-bin-default", "face-up"),
            .keyword("output-bin-supported", "face-up"),
            .boolean("page-ranges-supported", documentFormats.contains("application/pdf")),
            // The longest PDF password taken: none (an encrypted PDF is refused at intake).
            .integer("document-password-supported", 0),
            .integer("pages-per-minute", 30),
            .keyword("print-color-mode-default", "monochrome"),
            .keywords("print-color-mode-supported", capabilities?.color == true ? ["monochrome", "color"] : ["monochrome"]),
            .keyword("print-content-optimize-default", "auto"),
            .keyword("print-content-optimize-supported", "auto"),
            .enumeration("print-quality-default", 4),
            .enums("print-quality-supported", [4]),
            .keyword("print-rendering-intent-default", "auto"),
            .keyword("print-rendering-intent-supported", "auto"),
            .resolution("printer-resolution-default", resolution),
            .resolution("printer-resolution-supported", resolution),
            .keyword("ipp-features-supported", "ipp-everywhere"),
            .resolution("pwg-raster-document-resolution-supported", resolution),
            .keyword("pwg-raster-document-type-supported", "black_1", "sgray_8", "srgb_8"),
            .keyword("pwg-raster-document-sheet-back", "normal"),
            .keywords("urf-supported", ["V1.4", "CP1", "IS1", "MT1-2-3-4-5-8-11-12", "RS\(resolution.horizontal)", "W8", "SRGB24"]),
            .keyword("sides-default", "one-sided"),
            .keyword("sides-supported", "one-sided"),
            .boolean("color-supported", capabilities?.color == true),
        ]
        attributes += [
            .uri("printer-more-info", pageURI),
            .uri("printer-icons", "\(pageURI)/icon.png"),
            .uri("printer-supply-info-uri", pageURI),
            IPPAttribute(name: "printer-supply", syntax: .octetString, values: [.octets(Array(
                "index=1;class=supplyThatIsConsumed;type=other;unit=percent;maxcapacity=100;level=\(paperLevel);colorantname=unknown;".utf8))]),
            .text("printer-supply-description", "Paper roll"),
            IPPAttribute(name: "printer-geo-location", syntax: .unknown, values: [.outOfBand(.unknown)]),
            .text("printer-organization", ""),
            .text("printer-organizational-unit", ""),
            .keyword("printer-get-attributes-supported", "document-format"),
            .boolean("preferred-attributes-supported", false),
            // Required of an IPP Everywhere printer; a job's `overrides` is answered as unsupported (not in job-creation-attributes).
            .keyword("overrides-supported", "document-number", "pages"),
        ]
        attributes += media.attributes
        return attributes
    }

    /// The 1284 `CMD` list: what `document-format-supported` says, in its words.
    private var commandSet: String {
        documentFormats.compactMap { format -> String? in
            switch format {
            case "application/pdf": "PDF"
            case "image/jpeg": "JPEG"
            case "image/png": "PNG"
            case "image/pwg-raster": "PWG"
            case "image/urf": "URF"
            case "application/octet-stream": nil
            default: PrinterLanguage.allCases.first { $0.mimeType == format }.map { $0.description.uppercased() }
            }
        }.joined(separator: ",")
    }

    /// IPP's times are seconds, the same clock for the printer and its jobs:
    /// since the epoch, as CUPS counts, so that they hold across restarts.
    static func seconds(_ date: Date) -> Int { Int(date.timeIntervalSince1970) }
}
