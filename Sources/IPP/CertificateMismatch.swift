public import PrintModel

/// An `ipps://` printer presented another certificate than the one pinned
/// for it, so the exchange stopped before anything was sent. It may be the
/// same printer after a reset or a new certificate, or another machine at its
/// address: only a person can tell, by comparing the fingerprint shown with
/// the one on the printer's own status page.
public struct CertificateMismatch: Error, Sendable, Hashable {
    public var uri: String
    /// The fingerprint saved with the printer.
    public var pinned: CertificateFingerprint
    /// What it presented now; nil when the connection carried no certificate
    /// (an `ipp://` address, or one libcups could not read).
    public var presented: CertificateFingerprint?

    public init(uri: String, pinned: CertificateFingerprint, presented: CertificateFingerprint?) {
        self.uri = uri; self.pinned = pinned; self.presented = presented
    }

    /// The sentence for a person, naming the printer (`name`, and its saved
    /// `id` for the trust command; the URI when they are not known).
    public func explanation(printer name: String? = nil, id: Int64? = nil) -> String {
        let who = name.map { "\($0) (\(uri))" } ?? uri
        let reference = id.map(String.init) ?? uri
        guard let presented else {
            return "\(who) was saved with a pinned TLS certificate (SHA-256 \(pinned.hex)), but this connection "
                + "carried no certificate, so it cannot be told apart from another machine and nothing was sent. "
                + "Save it again under its ipps:// address (`kioskprint printers pick`, or `kioskprint printers add` "
                + "with the ipps:// URI that `kioskprint printers discover` lists)."
        }
        return "\(who) presented a different TLS certificate than the one pinned when it was saved, so nothing "
            + "was sent to it. Pinned: SHA-256 \(pinned.hex). Presented now: SHA-256 \(presented.hex). "
            + "If the printer was reset, replaced or given a new certificate, check the new fingerprint on the "
            + "printer's own status page and run `kioskprint printers trust \(reference) --fingerprint \(presented.hex)`, "
            + "or pick the printer again. If nothing was changed, another machine may be answering at its address: "
            + "do not trust it, and check the network."
    }
}
