import Hummingbird

/// Refuses a request whose path is not spelled the one way the routes are
/// (`/v1/jobs`, never `/v1/jobs/`, `//v1/jobs` or `/v1/./jobs`). The router
/// matches those spellings too, so without this every check keyed on the
/// path (the open paths, the status page's admin scope, the body limits)
/// could be stepped around by adding a slash.
struct CanonicalPath<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let path = request.uri.path
        guard !Self.isCanonical(path) else { return try await next(request, context) }
        let suggestion = Self.canonical(path).map { " Send it to \($0)." } ?? ""
        throw APIProblem(.notFound, "There is nothing at \(path.prefix(200)): the API's paths have no empty, \".\" or \"..\" "
            + "segments and no slash at the end.\(suggestion) /v1/openapi.json lists them.")
    }

    /// Whether `path` has no empty, `.` or `..` segment and no trailing slash (`/` alone is the status page).
    static func isCanonical(_ path: String) -> Bool {
        if path == "/" { return true }
        guard path.hasPrefix("/"), !path.hasSuffix("/") else { return false }
        return !path.utf8.dropFirst().split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).contains { segment in
            segment.isEmpty || segment.elementsEqual(".".utf8) || segment.elementsEqual("..".utf8)
        }
    }

    /// The path with empty and `.` segments dropped; nil when it climbs with `..`
    /// (no route does, so there is nothing to suggest).
    static func canonical(_ path: String) -> String? {
        let segments = path.split(separator: "/").filter { $0 != "." }
        guard !segments.contains("..") else { return nil }
        return "/" + segments.joined(separator: "/")
    }
}
