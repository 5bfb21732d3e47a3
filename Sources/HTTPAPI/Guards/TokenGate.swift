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
    let limiter: RateLimiter

    static var openPaths: Set<String> { ["/healthz", "/readyz", "/v1/openapi.json"] }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if Self.openPaths.contains(request.uri.path) { return try await next(request, context) }
        let page = Self.isStatusPage(request.uri.path)
        guard let secret = Self.secret(in: request.headers[.authorization]) else {
            throw Self.unauthorized("This request needs a token: send \"Authorization: Bearer TOKEN\". "
                + "An administrator makes one with `kioskprint tokens add NAME --scope print`.", page: page)
        }
        let token: APIToken?
        do { token = try await store.authenticate(secret: secret) } catch {
            throw APIProblem(.serviceUnavailable, "The token could not be checked: \(store.explain(error)) Try again shortly.")
        }
        guard let token else {
            throw Self.unauthorized("The token is not valid: it may have been revoked, or mistyped. "
                + "`kioskprint tokens list` shows the tokens that exist.", page: page)
        }
        let needed = Self.scope(for: request.method, page: page)
        guard token.scopes.contains(where: { $0.allows(needed) }) else {
            throw APIProblem(.forbidden, "The token \"\(token.name)\" has the scope \(token.scopes.map(\.rawValue).sorted().joined(separator: ", ")), "
                + "and this request needs \(needed.rawValue). Make a token with `kioskprint tokens add NAME --scope \(needed.rawValue)`.")
        }
        if let wait = limiter.take(for: token.name) {
            var problem = APIProblem(.tooManyRequests, "The token \"\(token.name)\" sent more than \(Int(limiter.perSecond)) requests "
                + "a second ([http] rate-limit). Try again in \(wait) s; a POS that retries should wait between tries.")
            problem.headers[.retryAfter] = String(wait)
            throw problem
        }
        return try await APICaller.$token.withValue(token) { try await next(request, context) }
    }

    /// What a request may do to the agent decides the scope it needs; the
    /// status page's buttons (test page, retry or cancel any job) are an administrator's.
    static func scope(for method: HTTPRequest.Method, page: Bool = false) -> TokenScope {
        if method == .get || method == .head { return .read }
        return page ? .admin : .print
    }

    /// The status page and its buttons, which a person opens in a browser.
    static func isStatusPage(_ path: String) -> Bool { path == "/" || path.hasPrefix("/ui/") }

    /// The secret from `Bearer SECRET`, or from HTTP Basic's password (any
    /// user name): how a browser, which cannot add a bearer header to a page
    /// it navigates to, sends a token after asking for it.
    static func secret(in header: String?) -> String? {
        guard let header else { return nil }
        let lowered = header.lowercased()
        if lowered.hasPrefix("bearer ") { return String(header.dropFirst(7)).trimmingCharacters(in: .whitespaces) }
        guard lowered.hasPrefix("basic "),
              let decoded = Data(base64Encoded: String(header.dropFirst(6)).trimmingCharacters(in: .whitespaces)),
              let text = String(data: decoded, encoding: .utf8), let colon = text.firstIndex(of: ":") else { return nil }
        return String(text[text.index(after: colon)...])
    }

    static func unauthorized(_ detail: String, page: Bool = false) -> APIProblem {
        var problem = APIProblem(.unauthorized, page ? detail + " In a browser, give any user name and the token as the password." : detail)
        // A browser asks for a user name and password only when told Basic.
        problem.headers[.wwwAuthenticate] = page ? "Basic realm=\"kioskprint\", charset=\"UTF-8\"" : "Bearer realm=\"kioskprint\""
        return problem
    }
}
