import IPP
public import PrintModel

extension RoleSetup {
    /// What `trust` did.
    public struct Trusted: Sendable {
        /// The printer as saved now, with its new pin.
        public var printer: SavedPrinter
        /// The pin it had before (nil: it had none).
        public var previous: CertificateFingerprint?
        /// The certificate it presents now, pinned.
        public var pinned: CertificateFingerprint

        /// False when the printer already presented its pinned certificate.
        public var changed: Bool { previous != pinned }
    }

    /// Pins the certificate the saved printer `reference` (its ID, name or
    /// URI) presents now, whatever was pinned before: the administrator's
    /// answer to a changed certificate. With `fingerprint`, only that
    /// certificate is accepted, and another one changes nothing.
    public func trust(_ reference: String, fingerprint: CertificateFingerprint? = nil) async throws -> Trusted {
        let printer = try await store.findPrinter(reference)
        if RawContact.isRaw(printer.uri) { throw SetupError.nothingToPin(printer: printer.name, uri: printer.uri) }
        let contacted: ContactedPrinter
        do {
            // No pin: the point is to see what it presents now.
            contacted = try await PrinterContact.contactWithCertificate(uri: printer.uri, timeout: contactTimeout)
        } catch {
            throw SetupError.unreachable("\(error)")
        }
        guard let presented = contacted.certificate else {
            throw SetupError.nothingToPin(printer: printer.name, uri: printer.uri)
        }
        if let fingerprint, fingerprint != presented {
            throw SetupError.fingerprintDiffers(printer: printer.name, uri: printer.uri, given: fingerprint,
                                                presented: presented)
        }
        if presented != printer.certificatePin {
            guard try await store.pinCertificate(printerID: printer.id, to: presented, replacing: printer.certificatePin)
            else { throw SetupError.pinChangedMeanwhile(printer: printer.name) }
        }
        try await store.recordContact(printerID: printer.id, capabilities: contacted.capabilities)
        let saved = try await store.findPrinter(String(printer.id))
        return Trusted(printer: saved, previous: printer.certificatePin, pinned: presented)
    }
}
