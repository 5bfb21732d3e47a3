import Foundation
import IPP
public import PrinterLanguages
public import PrintModel
public import RawConnections
public import Store

/// The administrator's work on roles: contact a printer, check that it can
/// serve the role, save it; and check that saved printers still answer.
/// `printers add`, `printers pick` and `printers check` are thin layers over it.
public struct RoleSetup: Sendable {
    public let store: KioskStore
    public var contactTimeout: Duration
    /// Where USB printers are looked up (their 1284 IDs); moved by tests.
    public var usbPrinters: USBPrinterDirectory

    public init(store: KioskStore, contactTimeout: Duration = .seconds(5),
                usbPrinters: USBPrinterDirectory = USBPrinterDirectory()) {
        self.store = store
        self.contactTimeout = contactTimeout
        self.usbPrinters = usbPrinters
    }

    /// What `add` did.
    public struct Added: Sendable {
        public var assignment: RoleAssignment
        /// The primary this printer replaced, if any.
        public var replaced: SavedPrinter?
        /// What `force` let through: the reasons the printer would have been refused.
        public var overridden: [String]
    }

    /// Contacts the printer at `uri`, checks it can serve `role`, and saves it.
    /// With `force`, an unreachable printer or one of the wrong kind is saved
    /// anyway and the reasons come back in `overridden`.
    ///
    /// A raw printer (`socket://`, `usb://`, `serial://`) is described by
    /// `model` (a catalog name; for USB its `MDL:` when not given) and
    /// `overrides`; contacting it asks its status. Both are ignored for IPP.
    public func add(uri: String, role: Role, as place: RolePlace, force: Bool = false,
                    serviceName: String? = nil, txt: TXTRecord? = nil,
                    model: String? = nil, overrides: ProfileOverrides = ProfileOverrides()) async throws -> Added {
        if RawContact.isRaw(uri) {
            return try await addRaw(uri: uri, role: role, as: place, force: force, serviceName: serviceName, txt: txt,
                                    model: model, overrides: overrides)
        }
        try Self.validate(uri: uri)
        var overridden: [String] = []
        let capabilities: PrinterCapabilities
        do {
            capabilities = try await PrinterContact.contact(uri: uri, timeout: contactTimeout, txt: txt)
        } catch {
            guard force else { throw SetupError.refusedUnreachable("\(error)") }
            overridden.append("\(error)")
            capabilities = Self.unreached(uri: uri, serviceName: serviceName, txt: txt)
        }
        return try await save(uri: uri, capabilities: capabilities, role: role, as: place, force: force,
                              serviceName: serviceName, overridden: overridden)
    }

    /// Saves a printer already contacted (the picker has its answer on screen).
    public func save(uri: String, capabilities: PrinterCapabilities, role: Role, as place: RolePlace,
                     force: Bool = false, serviceName: String? = nil, overridden: [String] = []) async throws -> Added {
        var overridden = overridden
        // A raw printer's kinds come from its profile, known whether or not it answered.
        if !role.accepts(capabilities.kinds), capabilities.state != .unreachable || capabilities.rawProfile != nil {
            let refusal = SetupError.wrongKinds(printer: capabilities.name, kinds: capabilities.kinds,
                                                kindsSource: capabilities.kindsSource, role: role)
            guard force else { throw refusal }
            overridden.append(refusal.description)
        }
        let outcome = try await store.assign(uri: uri, serviceName: serviceName, capabilities: capabilities,
                                             to: role, as: place)
        return Added(assignment: outcome.assignment, replaced: outcome.replaced, overridden: overridden)
    }

    /// A saved printer and what contacting it now found.
    public struct Checked: Sendable {
        public var assignment: RoleAssignment
        public var result: Result<PrinterCapabilities, SetupError>

        public var isReady: Bool {
            if case .success(let capabilities) = result {
                return capabilities.state != .stopped && capabilities.attentionReasons.isEmpty
            }
            return false
        }
    }

    /// Contacts every saved printer (of `role`, or of every role), all at once,
    /// and records what each said. Results come back in role order.
    public func check(role: Role? = nil) async throws -> [Checked] {
        let assignments = try await store.assignments(for: role)
        let printers = Dictionary(assignments.map { ($0.printer.id, $0.printer) }, uniquingKeysWith: { a, _ in a })
        let timeout = contactTimeout
        let setup = self
        // A named struct, not a tuple: Swift 6.3's optimiser returned garbage
        // printer ids from child tasks yielding (Int64, Result<...>) tuples
        // (release builds only; measured with `kioskprint demo`).
        let answers = await withTaskGroup(of: Answer.self) { group in
            for printer in printers.values {
                group.addTask {
                    if RawContact.isRaw(printer.uri) {
                        return Answer(printerID: printer.id, result: await setup.contactSaved(raw: printer, timeout: timeout))
                    }
                    do {
                        let capabilities = try await PrinterContact.contact(uri: printer.uri, timeout: timeout)
                        return Answer(printerID: printer.id, result: .success(capabilities))
                    } catch {
                        return Answer(printerID: printer.id, result: .failure(.unreachable("\(error)")))
                    }
                }
            }
            var answers: [Int64: Result<PrinterCapabilities, SetupError>] = [:]
            for await answer in group { answers[answer.printerID] = answer.result }
            return answers
        }
        for (id, answer) in answers {
            if case .success(let capabilities) = answer {
                try await store.recordContact(printerID: id, capabilities: capabilities)
            }
        }
        return assignments.map { assignment in
            Checked(assignment: assignment,
                    result: answers[assignment.printer.id] ?? .failure(.unreachable("\(assignment.printer.uri) gave no answer.")))
        }
    }

    /// What contacting one saved printer found.
    private struct Answer: Sendable {
        var printerID: Int64
        var result: Result<PrinterCapabilities, SetupError>
    }

    /// Only IPP URIs with a host name a printer can be reached at (raw ones
    /// are read by `RawPrinterURI`).
    static func validate(uri: String) throws(SetupError) {
        guard let components = URLComponents(string: uri),
              let scheme = components.scheme?.lowercased(), ["ipp", "ipps"].contains(scheme),
              let host = components.host, !host.isEmpty
        else { throw SetupError.invalidURI(uri) }
    }

    /// What is saved for a printer added with `force` while it did not answer:
    /// the spooler contacts it again before printing anything.
    static func unreached(uri: String, serviceName: String?, txt: TXTRecord?) -> PrinterCapabilities {
        let host = URLComponents(string: uri)?.host ?? uri
        return PrinterCapabilities(name: serviceName ?? host, location: txt?.location ?? "",
                                   makeAndModel: txt?.makeAndModel ?? "", uuid: txt?.uuid,
                                   kinds: txt?.kinds ?? [], kindsSource: .dnssd, state: .unreachable)
    }
}

/// Why a printer could not be set up. Each message says what to do next.
public enum SetupError: Error, CustomStringConvertible, Equatable {
    case invalidURI(String)
    /// A `socket://`, `usb://` or `serial://` URI that does not parse: `RawURIError`'s message.
    case invalidRawURI(String)
    /// A raw printer given no model and no description, whose model is not known otherwise.
    case rawModelNeeded(uri: String, deviceModel: String?)
    /// The catalog and overrides gave no usable profile: `ProfileError`'s message.
    case rawProfile(String)
    /// The contact failed; the text is the contact error's own message.
    case unreachable(String)
    /// `add` refused a printer that did not answer.
    case refusedUnreachable(String)
    case wrongKinds(printer: String, kinds: Set<JobKind>, kindsSource: PrinterCapabilities.KindsSource, role: Role)

    public var description: String {
        switch self {
        case .invalidURI(let uri):
            return "'\(uri)' is not a printer URI. Give it as ipp://HOST:PORT/PATH or ipps://HOST:PORT/PATH, "
                + "for example ipp://192.168.1.40:631/ipp/print, or for a raw printer as socket://HOST[:PORT], "
                + "usb://MAKE/MODEL?serial=SERIAL or serial:///dev/ttyUSB0?baud=115200; "
                + "kioskprint printers discover lists the URIs of the printers it finds."
        case .invalidRawURI(let message), .rawProfile(let message):
            return message
        case .rawModelNeeded(let uri, let deviceModel):
            let known = ["TM-T88VI", "TM-T20III", "TM-m30III", "TSP143", "CT-S310II", "ZD420-203dpi"]
                .filter { name in ModelCatalog.entries.contains { $0.name == name } }
            let why = deviceModel.map { "its model \"\($0)\" is not in KioskPrint's catalog" }
                ?? "a raw printer cannot be asked what it is"
            return "KioskPrint does not know what printer \(uri) is: \(why). Give its model, for example --model TM-T88VI, "
                + "or describe it, for example --language escpos --width 80mm --printable 576 --dpi 203 "
                + "(--language zpl --width 4in --dpi 203 for a label printer). Catalog models include "
                + known.joined(separator: ", ") + "."
        case .unreachable(let message):
            return message
        case .refusedUnreachable(let message):
            return message + " To save it anyway (it will be contacted again before printing), add --force."
        case .wrongKinds(let printer, let kinds, let source, let role):
            let what = kinds.isEmpty ? "does not say what kind of printer it is"
                : "is a \(kinds.listing) printer" + (source == .inferred ? " (judged from its media)" : "")
            let needed = role.acceptedKinds.sorted().map(\.rawValue).joined(separator: " or ")
            return "\(printer) \(what); the role '\(role)' needs a \(needed) printer. "
                + "Choose another printer (kioskprint printers discover --kind \(role.acceptedKinds.sorted().first?.rawValue ?? "receipt")), "
                + "or add --force if you are sure it can print these jobs."
        }
    }
}
