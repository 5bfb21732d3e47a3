import Foundation
import Hummingbird
import Store

/// Who is calling: the token a request was let in with. Set by `TokenGate`
/// for the request's task, read by the handlers (an Idempotency-Key is
/// scoped by it).
enum APICaller {
    @TaskLocal static var token: APIToken?
}

/// Lets a request in only with a valid bearer token whose scope allows it:
/// reading (GET) needs `read`, anything that changes the queue `print`.
/// `/healthz`, `/readyz` and the OpenAPI document are open, for service
/// managers and tools; CORS preflights are answered before this.
struct TokenGate<Context: RequestContext>: RouterMiddleware {
    let store: KioskStore

    static var openPaths: Set<String> { ["/healthz", "/readyz", "/v1/openapi.json"] }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if Self.openPaths.contains(request.uri.path) { return try await next(request, context) }
        guard let header = request.headers[.authorization], header.lowercased().hasPrefix("bearer ") else {
            throw Self.unauthorized("This request needs a token: send \"Authorization: Bearer TOKEN\". "
                + "An administrator makes one with `kioskprint tokens add NAME --scope print`.")
        }
        let secret = String(header.dropFirst("bearer ".count)).trimmingCharacters(in: .whitespaces)
        let token: APIToken?
        do { token = try await store.authenticate(secret: secret) } catch {
            throw APIProblem(.serviceUnavailable, "The token could not be checked: \(store.explain(error)) Try again shortly.")
        }
        guard let token else {
            throw Self.unauthorized("The token is not valid: it may have been revoked, or mistyped. "
                + "`kioskprint tokens list` shows the tokens that exist.")
        }
        let needed = Self.scope(for: request.method)
        guard token.scopes.contains(where: { $0.allows(needed) }) else {
            throw APIProblem(.forbidden, "The token \"\(token.name)\" has the scope \(token.scopes.map(\.rawValue).sorted().joined(separator: ", ")), "
                + "and this request needs \(needed.rawValue). Make a token with `kioskprint tokens add NAME --scope \(needed.rawValue)`.")
        }
        return try await APICaller.$token.withValue(token) { try await next(request, context) }
    }

    /// What a request may do to the agent decides the scope it needs.
    static func scope(for method: HTTPRequest.Method) -> TokenScope {
        method == .get || method == .head ? .read : .print
    }

    static func unauthorized(_ detail: String) -> APIProblem {
        var problem = APIProblem(.unauthorized, detail)
        problem.headers[.wwwAuthenticate] = "Bearer realm=\"kioskprint\""
        return problem
    }
}
