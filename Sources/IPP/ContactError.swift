/// Why contacting a printer failed. Every message names the printer's URI
/// and says what to do next: the administrator reads these at a kiosk with
/// no one to ask, so "error 1280" is never enough.
public enum ContactError: Error, CustomStringConvertible, Equatable, Sendable {
    /// The URI cannot be a printer's address (`reason` says why).
    case invalidURI(uri: String, reason: String)
    /// The host name did not resolve.
    case hostNotFound(uri: String, host: String)
    /// Nothing accepted a connection at host:port (libcups: "Host is down").
    case refused(uri: String)
    /// The network gave another error before a connection existed.
    case unreachable(uri: String, detail: String)
    /// No answer within the time allowed. `connected` tells a printer that
    /// accepted the connection and then said nothing (asleep, stopped,
    /// overloaded) from one that never completed the TCP handshake.
    case timedOut(uri: String, seconds: Double, connected: Bool)
    /// Something answered, but not as an IPP printer: an HTTP error status to
    /// the IPP POST, a reply that is not IPP, or a connection closed without a reply.
    case notIPPPrinter(uri: String, reason: String)
    /// The printer wants a user name and password, which KioskPrint does not hold.
    case authenticationRequired(uri: String)
    /// The TLS handshake of an `ipps://` connection failed (`detail` is GnuTLS's word).
    case tls(uri: String, detail: String)
    /// The printer answered with an IPP error status.
    case ippError(uri: String, status: String, message: String?)
    /// The caller's task was cancelled before the printer answered.
    case cancelled(uri: String)
    /// An `ipps://` printer presented another certificate than its pin: nothing was sent.
    case certificateChanged(CertificateMismatch)

    /// The printer's URI, whatever went wrong.
    public var uri: String {
        switch self {
        case .invalidURI(let uri, _), .hostNotFound(let uri, _), .refused(let uri),
             .unreachable(let uri, _), .timedOut(let uri, _, _), .notIPPPrinter(let uri, _),
             .authenticationRequired(let uri), .tls(let uri, _), .ippError(let uri, _, _),
             .cancelled(let uri):
            uri
        case .certificateChanged(let mismatch):
            mismatch.uri
        }
    }

    public var description: String {
        switch self {
        case .invalidURI(let uri, let reason):
            return "'\(uri)' is not a printer address (\(reason)). Use the form ipp://HOST:PORT/ipp/print "
                + "or ipps://HOST:PORT/ipp/print; `kioskprint printers discover` lists the printers found and their URIs."
        case .hostNotFound(let uri, let host):
            return "Cannot contact \(uri): the host name '\(host)' does not resolve. Check the spelling, or use the "
                + "printer's IP address; `kioskprint printers discover` finds it again by its DNS-SD name."
        case .refused(let uri):
            return "Cannot contact \(uri): nothing accepts connections at that address and port. Check that the "
                + "printer is switched on and on the network and that the address and port are right; "
                + "`kioskprint printers discover` finds it again if its address changed."
        case .unreachable(let uri, let detail):
            return "Cannot contact \(uri): \(detail). Check the kiosk's network connection and the printer's "
                + "address; `kioskprint printers discover` finds it again if its address changed."
        case .timedOut(let uri, let seconds, let connected):
            let after = Self.format(seconds)
            if connected {
                return "\(uri) accepted the connection but did not answer within \(after) s: the printer is "
                    + "asleep, stopped or overloaded. Power-cycle it, then run `kioskprint printers check`."
            }
            return "\(uri) did not accept a connection within \(after) s: the printer is off, unplugged or on "
                + "another network. Check it, then run `kioskprint printers check`; `kioskprint printers discover` "
                + "finds it again if its address changed."
        case .notIPPPrinter(let uri, let reason):
            return "\(uri) is not an IPP printer: \(reason). Something else listens on that port (often the "
                + "printer's web page or another service); check the port and path, or find the printer's IPP "
                + "address with `kioskprint printers discover`."
        case .authenticationRequired(let uri):
            return "\(uri) asks for a user name and password, which KioskPrint does not send. Allow "
                + "unauthenticated IPP printing in the printer's settings (its web page), then run "
                + "`kioskprint printers check`."
        case .tls(let uri, let detail):
            return "Cannot set up an encrypted (TLS) connection to \(uri): \(detail). Try the same address with "
                + "ipp:// instead of ipps://, or check the printer's certificate and TLS settings on its web page."
        case .ippError(let uri, let status, let message):
            let said = message.map { " (the printer says: \($0))" } ?? ""
            return "\(uri) refused the request with \(status)\(said). Check that the URI's path is the printer's "
                + "IPP path (usually /ipp/print) and the printer's own status page, then run `kioskprint printers check`."
        case .cancelled(let uri):
            return "Contacting \(uri) was cancelled before the printer answered; run `kioskprint printers check` to try again."
        case .certificateChanged(let mismatch):
            return mismatch.explanation()
        }
    }

    /// `5`, `2.5`: seconds without a trailing `.0`.
    private static func format(_ seconds: Double) -> String {
        let tenths = (seconds * 10).rounded() / 10
        return tenths == tenths.rounded() ? String(Int(tenths)) : String(tenths)
    }
}
