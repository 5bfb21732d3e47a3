import HTTPTypes
import Hummingbird

/// CORS for a browser POS: requests from an origin listed in `[http]
/// allowed-origins` get the headers that let the page read the answer, and
/// preflights (including the Private Network Access preflight that browsers
/// send before a public page may reach 127.0.0.1) are answered here. A
/// request from any other origin is refused, before it can queue anything.
/// Requests without an Origin header (curl, a native POS) pass untouched.
struct CrossOrigin<Context: RequestContext>: RouterMiddleware {
    let allowed: Set<String>

    static var allowedHeaders: String { "authorization, content-type, idempotency-key, last-event-id" }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let origin = request.headers[.origin] else { return try await next(request, context) }
        // The status page's own forms post from the agent's own origin.
        if let host = request.head.authority, origin == "http://\(host)" {
            return try await next(request, context)
        }
        guard allowed.contains(origin) else {
            throw APIProblem(.forbidden, "Requests from the origin \(origin) are not allowed. Add it to allowed-origins "
                + "in the [http] table of the agent's configuration, e.g. allowed-origins = [\"\(origin)\"], and reload the agent.")
        }
        var headers: HTTPFields = [.accessControlAllowOrigin: origin, .vary: "Origin"]
        if request.method == .options {
            headers[.accessControlAllowMethods] = "GET, POST, OPTIONS"
            headers[.accessControlAllowHeaders] = Self.allowedHeaders
            headers[.accessControlMaxAge] = "600"
            if request.headers[HTTPField.Name("Access-Control-Request-Private-Network")!] == "true" {
                headers[HTTPField.Name("Access-Control-Allow-Private-Network")!] = "true"
            }
            return Response(status: .noContent, headers: headers)
        }
        var response = try await next(request, context)
        response.headers[.accessControlAllowOrigin] = origin
        response.headers[.vary] = "Origin"
        response.headers[.accessControlExposeHeaders] = "location"
        return response
    }
}
