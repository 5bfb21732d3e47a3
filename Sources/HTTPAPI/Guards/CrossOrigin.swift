import Foundation
import HTTPTypes
import Hummingbird

/// CORS for a browser POS: requests from an origin listed in `[http]
/// allowed-origins` get the headers that let the page read the answer, and
/// preflights (including the Private Network Access preflight that browsers
/// send before a public page may reach 127.0.0.1) are answered here. A
/// request from any other origin is refused, before it can queue anything.
/// Requests without an Origin header (curl, a native POS) pass untouched.
///
/// Origins are compared as browsers mean them: the scheme and host in any
/// case, the default port (80, 443) written or not. Every answer says
/// `Vary: Origin`, since whether it is given or refused depends on it.
struct CrossOrigin<Context: RequestContext>: RouterMiddleware {
    let allowed: Set<String>
    /// The scheme of the agent's own pages (`https` when the API has TLS), for the status page's own forms.
    let ownScheme: String
    /// The request headers a preflight allows.
    let allowedHeaders: String
    /// Where the allowed origins are set, for the refusal's advice: `[http] allowed-origins`.
    let setting: (table: String, key: String)

    init(allowed: some Sequence<String>, secure: Bool, headers: String = Self.apiHeaders,
         setting: (table: String, key: String) = ("http", "allowed-origins")) {
        self.allowed = Set(allowed.map(Self.normalized))
        ownScheme = secure ? "https" : "http"
        allowedHeaders = headers
        self.setting = setting
    }

    static var apiHeaders: String { "authorization, content-type, idempotency-key, last-event-id" }
    /// Answer headers a page may read besides the simple ones.
    static var exposedHeaders: String { "location, retry-after, cut-lengths, x-kioskprint-problem" }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let header = request.headers[.origin] else { return Self.varying(try await next(request, context)) }
        let origin = Self.normalized(header)
        // The status page's own forms post from the agent's own origin.
        if let host = request.head.authority, origin == Self.normalized("\(ownScheme)://\(host)") {
            return Self.varying(try await next(request, context))
        }
        guard allowed.contains(origin) else {
            var problem = APIProblem(.forbidden, "Requests from the origin \(header.prefix(200)) are not allowed. Add it to \(setting.key) "
                + "in the [\(setting.table)] table of the agent's configuration, e.g. \(setting.key) = [\"\(origin.prefix(200))\"], and reload the agent.")
            problem.headers[.vary] = "Origin"
            throw problem
        }
        var headers: HTTPFields = [.accessControlAllowOrigin: header, .vary: "Origin"]
        if request.method == .options {
            headers[.accessControlAllowMethods] = "GET, POST, OPTIONS"
            headers[.accessControlAllowHeaders] = allowedHeaders
            headers[.accessControlMaxAge] = "600"
            if request.headers[HTTPField.Name("Access-Control-Request-Private-Network")!] == "true" {
                headers[HTTPField.Name("Access-Control-Allow-Private-Network")!] = "true"
            }
            return Response(status: .noContent, headers: headers)
        }
        var response = try await next(request, context)
        response.headers[.accessControlAllowOrigin] = header
        response.headers[.vary] = "Origin"
        response.headers[.accessControlExposeHeaders] = Self.exposedHeaders
        return response
    }

    private static func varying(_ response: Response) -> Response {
        var response = response
        response.headers[.vary] = "Origin"
        return response
    }

    /// `scheme://host[:port]` with the scheme and host in lower case, the
    /// default port of the scheme left out, and no trailing slash.
    static func normalized(_ origin: String) -> String {
        var text = origin.trimmingCharacters(in: .whitespaces)
        while text.hasSuffix("/") { text.removeLast() }
        guard let separator = text.range(of: "://") else { return text.lowercased() }
        let scheme = text[..<separator.lowerBound].lowercased()
        var authority = text[separator.upperBound...].lowercased()
        let defaultPort = scheme == "https" ? ":443" : scheme == "http" ? ":80" : nil
        if let defaultPort, authority.hasSuffix(defaultPort) { authority.removeLast(defaultPort.count) }
        return scheme + "://" + authority
    }
}
