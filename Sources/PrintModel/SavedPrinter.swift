public import Foundation

/// A printer the administrator has saved: identified by its URI (Apple saves
/// `UIPrinter.URL`), with the DNS-SD UUID to find it again when its address
/// changes, and the capabilities read when it was last contacted.
public struct SavedPrinter: Hashable, Codable, Sendable, Identifiable {
    public var id: Int64
    public var uri: String
    public var uuid: String?
    /// The DNS-SD service name, when it was picked from discovery.
    public var serviceName: String?
    public var capabilities: PrinterCapabilities
    public var addedAt: Date
    public var contactedAt: Date
    /// The TLS certificate an `ipps://` printer must present (trust on first
    /// use: the one it presented when the administrator saved it). Nil for
    /// `ipp://` and raw printers, and for a printer saved before pins existed
    /// until `printers check` pins it.
    public var certificatePin: CertificateFingerprint?

    public init(id: Int64, uri: String, uuid: String?, serviceName: String?,
                capabilities: PrinterCapabilities, addedAt: Date, contactedAt: Date,
                certificatePin: CertificateFingerprint? = nil) {
        self.id = id; self.uri = uri; self.uuid = uuid; self.serviceName = serviceName
        self.capabilities = capabilities; self.addedAt = addedAt; self.contactedAt = contactedAt
        self.certificatePin = certificatePin
    }

    public var name: String { capabilities.name }

    /// True for an `ipps://` printer: it presents a certificate, which can be pinned.
    public var presentsCertificate: Bool { uri.lowercased().hasPrefix("ipps://") }
}

/// A printer's place in a role: position 0 is the primary, the rest are backups in order.
public struct RoleAssignment: Hashable, Codable, Sendable {
    public var role: Role
    public var position: Int
    public var printer: SavedPrinter

    public init(role: Role, position: Int, printer: SavedPrinter) {
        self.role = role; self.position = position; self.printer = printer
    }

    public var isPrimary: Bool { position == 0 }
    /// `primary`, `backup 1`, `backup 2`...
    public var rank: String { position == 0 ? "primary" : "backup \(position)" }
}
