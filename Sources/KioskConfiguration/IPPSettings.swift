/// `[ipp]`: the listener of the role printers, the roles with
/// `ipp-printer = true` served as IPP Everywhere printers at
/// `ipp://HOST:PORT/ipp/print/ROLE` (see the README's "Role printers").
/// Loopback by default; an address other machines can reach is served only
/// with TLS, as the HTTP API is.
public struct IPPSettings: Sendable, Equatable {
    /// Where the role printers listen.
    public var listen = IPPSettings.defaultListen
    /// Ask every client for HTTP Basic, any user name, a token with the
    /// `print` scope as the password (iOS and CUPS ask the user for it).
    public var requireToken = false
    /// PEM files for `ipps://`; both or neither.
    public var tlsCertificate: String?
    public var tlsKey: String?

    /// 8631: beside CUPS's 631, which a box running CUPS already holds.
    public static let defaultListen = ListenAddress(host: "127.0.0.1", port: 8631)

    public init() {}
}
