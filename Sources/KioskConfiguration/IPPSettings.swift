/// `[ipp]`: the listener of the role printers, the roles with
/// `ipp-printer = true` served as IPP Everywhere printers at
/// `ipp://HOST:PORT/ipp/print/ROLE` (see the README's "Role printers").
/// Loopback by default; an address other machines can reach is served only
/// with TLS (`ipps://`), with the certificate given here or, without one,
/// a certificate the agent makes on its first start.
public struct IPPSettings: Sendable, Equatable {
    /// Where the role printers listen.
    public var listen = IPPSettings.defaultListen
    /// Ask every client for HTTP Basic, any user name, a token with the
    /// `print` scope as the password (iOS and CUPS ask the user for it).
    public var requireToken = false
    /// Serve `ipps://`: set when a certificate is given or the address is not
    /// loopback, and by `tls = true` (a loopback `ipps://`, for trying it).
    public var tls = false
    /// PEM files for `ipps://`; both or neither. Without them the agent
    /// serves the certificate it made (see `AgentCertificate`).
    public var tlsCertificate: String?
    public var tlsKey: String?

    /// 8631: beside CUPS's 631, which a box running CUPS already holds.
    public static let defaultListen = ListenAddress(host: "127.0.0.1", port: 8631)

    public init() {}
}
