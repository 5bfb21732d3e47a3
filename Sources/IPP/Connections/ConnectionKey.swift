import PrintModel

/// Which exchanges may share a kept connection: those to the same host and
/// port, over the same encryption, that demand the same certificate. A
/// connection made for one pin (or for none) is never lent to another.
struct ConnectionKey: Hashable, Sendable {
    var host: String
    var port: Int
    var secure: Bool
    var pin: CertificateFingerprint?

    init(_ endpoint: IPPEndpoint, pin: CertificateFingerprint?) {
        host = endpoint.host
        port = endpoint.port
        secure = endpoint.secure
        self.pin = pin
    }
}
