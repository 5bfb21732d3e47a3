import Hummingbird
import NIOCore
import Templates

/// Reads every request's body before any handler sees it, up to what its
/// route takes: `[http] max-body` for `POST /v1/jobs` (a PDF or an image),
/// a job's data limit for `POST /v1/render`, and a few KB for everything
/// else (the status page's forms, cancel and retry carry nothing). A body
/// declared larger is refused unread; one that grows past the limit is
/// refused as soon as it does. Either way the connection is closed after
/// the answer (`RequestPace`), so nothing more of it is read.
struct BodyLimit<Context: RequestContext>: RouterMiddleware {
    let maxBody: Int

    /// The body a request with no use for one may still carry (a form's empty fields).
    static var smallBody: Int { 4096 }

    func limit(for request: Request) -> (bytes: Int, setting: String) {
        switch (request.method, request.uri.path) {
        case (.post, "/v1/jobs"): (maxBody, "[http] max-body in the agent's configuration")
        // The template data a job may carry, and room for the request around it.
        case (.post, "/v1/render"): (min(maxBody, TemplateLimits.maximumDataBytes + 65_536), "a preview's data limit")
        default: (Self.smallBody, "this request takes no body")
        }
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let (limit, setting) = limit(for: request)
        if let length = request.headers[.contentLength].flatMap(Int.init), length > limit {
            throw Self.tooLarge("is \(length) bytes", limit: limit, setting: setting)
        }
        var request = request
        do { _ = try await request.collectBody(upTo: limit) } catch is NIOTooManyBytesError {
            throw Self.tooLarge("is larger than that", limit: limit, setting: setting)
        }
        return try await next(request, context)
    }

    static func tooLarge(_ what: String, limit: Int, setting: String) -> APIProblem {
        APIProblem(.contentTooLarge, "The request body \(what): this request takes at most \(limit) bytes (\(setting)). "
            + "Nothing was read past the limit, and nothing was queued.")
    }
}
