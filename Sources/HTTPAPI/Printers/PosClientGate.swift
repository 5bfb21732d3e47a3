import Hummingbird
import KioskConfiguration
import NIOCore
import Store

/// Who may use a POS endpoint (ePOS-Print, WebPRNT): off loopback only the
/// addresses in the table's `clients` (a client elsewhere is refused before
/// its body is read), and, with `require-token`, a request whose query
/// carries `token=SECRET` of a token with the print scope, since Epson's and
/// Star's clients can add neither a header nor a password.
struct PosClientGate: RouterMiddleware {
    let settings: PosClientSettings
    /// The protocol's name and its configuration table: ("ePOS-Print", "epos").
    let service: (name: String, table: String)
    let listen: ListenAddress
    let store: KioskStore
    let limiter: RateLimiter

    func handle(_ request: Request, context: PrinterRequestContext,
                next: (Request, PrinterRequestContext) async throws -> Response) async throws -> Response {
        let address = context.remoteAddress?.ipAddress.flatMap(IPAddressText.bytes)
        guard let address, settings.admits(address, listeningOn: listen) else {
            throw APIProblem(.forbidden, "This printer takes \(service.name) only from the addresses in [\(service.table)] clients; "
                + "\(context.client) is not one. Add the till's network to clients in the [\(service.table)] table of the agent's "
                + "configuration, and reload it.")
        }
        guard settings.requireToken, request.method != .options else { return try await next(request, context) }
        guard let secret = request.uri.queryParameters.get("token") else {
            throw APIProblem(.unauthorized, "This printer asks for a token: add token=SECRET (a token with the print scope, "
                + "`kioskprint tokens add NAME --scope print`) to the printer's address in the POS.")
        }
        let token: APIToken?
        do { token = try await store.authenticate(secret: secret) } catch {
            throw APIProblem(.serviceUnavailable, "The token could not be checked: \(store.explain(error)) Try again shortly.")
        }
        guard let token, token.scopes.contains(where: { $0.allows(.print) }) else {
            throw APIProblem(.unauthorized, "token= is not a token with the print scope; `kioskprint tokens list` shows the tokens.")
        }
        if let wait = limiter.take(for: token.name) {
            var problem = APIProblem(.tooManyRequests, "The token \"\(token.name)\" sent too many requests; try again in \(wait) s.")
            problem.headers[.retryAfter] = String(wait)
            throw problem
        }
        return try await next(request, context)
    }
}
