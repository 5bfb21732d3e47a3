import Foundation
import IPP
public import PrinterLanguages
public import PrintModel
public import RawPrinters
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
        /// The certificate pin this save replaced: saved before, the printer
        /// presented another certificate this time, and the new one is pinned.
        public var replacedPin: CertificateFingerprint?
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
        var certificate: CertificateFingerprint?
        do {
            // Any certificate: this is the first use, which the administrator's save trusts.
            let contacted = try await PrinterContact.contactWithCertificate(uri: uri, timeout: contactTimeout, txt: txt)
            capabilities = contacted.capabilities
            certificate = contacted.certificate
        } catch {
            guard force else { throw SetupError.refusedUnreachable("\(error)") }
            overridden.append("\(error)")
            capabilities = Self.unreached(uri: uri, serviceName: serviceName, txt: txt)
        }
        return try await save(uri: uri, capabilities: capabilities, certificate: certificate, role: role, as: place,
                              force: force, serviceName: serviceName, overridden: overridden)
    }

    /// Saves a printer already contacted (the picker has its answer on screen).
    /// `certificate`, the one an ipps printer presented at that contact, is pinned.
    public func save(uri: String, capabilities: PrinterCapabilities, certificate: CertificateFingerprint? = nil,
                     role: Role, as place: RolePlace, force: Bool = false, serviceName: String? = nil,
                     overridden: [String] = []) async throws -> Added {
        var overridden = overridden
        // A raw printer's kinds come from its profile, known whether or not it answered.
        // A printer whose every resolution or paper size was implausible has nothing to draw for.
        if let problems = capabilities.implausible, capabilities.rawProfile == nil,
           capabilities.resolutions.native == nil || (capabilities.rolls.isEmpty && capabilities.sheets.isEmpty) {
            let refusal = SetupError.implausible(printer: capabilities.name, uri: uri, problems: problems)
            guard force else { throw refusal }
            overridden.append(refusal.description)
        }
        if !role.accepts(capabilities.kinds), capabilities.state != .unreachable || capabilities.rawProfile != nil {
            let refusal = SetupError.wrongKinds(printer: capabilities.name, kinds: capabilities.kinds,
                                                kindsSource: capabilities.kindsSource, role: role)
            guard force else { throw refusal }
            overridden.append(refusal.description)
        }
        let outcome = try await store.assign(uri: uri, serviceName: serviceName, capabilities: capabilities,
                                             certificate: certificate, to: role, as: place)
        return Added(assignment: outcome.assignment, replaced: outcome.replaced, overridden: overridden,
                     replacedPin: outcome.replacedPin)
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
