import CCups
import PrintModel

/// The certificate a printer presented in the TLS handshake of an `ipps://`
/// connection, read from libcups. The pointers stay in here.
enum PresentedCertificate {
    /// The SHA-256 fingerprint of the leaf certificate (DER) on `http`'s TLS
    /// session, or nil when the connection has none: not encrypted, or libcups
    /// could not copy it. Call after the handshake (libcups does it inside
    /// `httpReconnect2` when encryption is ALWAYS) and before any request.
    static func fingerprint(of http: OpaquePointer) -> CertificateFingerprint? {
        // libcups 2.4 with GnuTLS: an array of http_credential_t, the peer's
        // chain as sent, its own certificate first.
        var credentials: OpaquePointer?
        guard httpCopyCredentials(http, &credentials) == 0, let credentials else { return nil }
        defer { httpFreeCredentials(credentials) }
        guard let first = cupsArrayFirst(credentials) else { return nil }
        let leaf = first.assumingMemoryBound(to: http_credential_t.self).pointee
        guard let der = leaf.data, leaf.datalen > 0 else { return nil }
        var digest = [UInt8](repeating: 0, count: 32)
        guard cupsHashData("sha2-256", der, leaf.datalen, &digest, digest.count) == 32 else { return nil }
        return CertificateFingerprint(digest: digest)
    }
}
