import Foundation
import IPP

extension RolePrinterServer {
    /// Get-Printer-Attributes (RFC 8011 §4.2.5): every attribute, or those
    /// `requested-attributes` names, by name or by group.
    func getPrinterAttributes(_ request: RolePrinterRequest) async throws(IPPRefusal) -> Answer {
        let printer = try await describe(request)
        let requested = AttributeSelection(request.operationAttributes, default: ["all"])
        return Answer(printer: printer.attributes().filter { requested.includes($0.name, printerAttribute: true) })
    }
}

/// Which attributes a client asked for with `requested-attributes`: names,
/// or the group keywords `all`, `printer-description`, `job-template`,
/// `job-description` (RFC 8011 §4.2.5.1, §4.3.4.1).
struct AttributeSelection: Sendable {
    var names: Set<String>

    init(_ operation: [IPPAttribute], default fallback: Set<String>) {
        let requested = operation.strings("requested-attributes")
        names = requested.isEmpty ? fallback : Set(requested)
    }

    /// Job template attributes, which both printers (their -default, -supported) and jobs answer.
    private static let templateStems = ["copies", "finishings", "media", "media-col", "orientation-requested", "print-color-mode",
                                        "print-quality", "printer-resolution", "sides", "job-priority", "job-sheets",
                                        "output-bin", "page-ranges", "multiple-document-handling", "print-content-optimize",
                                        "print-rendering-intent", "media-bottom-margin", "media-left-margin", "media-right-margin",
                                        "media-top-margin", "media-size", "media-source", "media-type"]

    func includes(_ name: String, printerAttribute: Bool) -> Bool {
        if names.contains(name) { return true }
        // Returned only when named: it can be large, and PWG 5100.7 forbids it in "all" and the groups.
        if name == "media-col-database" { return false }
        if names.contains("all") { return true }
        let template = Self.templateStems.contains { name == $0 || name == "\($0)-default" || name == "\($0)-supported"
            || name == "\($0)-ready" || name == "\($0)-database" }
        if printerAttribute {
            if names.contains("job-template") && template { return true }
            return names.contains("printer-description") && !template
        }
        if names.contains("job-template") && template { return true }
        return names.contains("job-description") && !template
    }
}
