import Foundation
import Synchronization
import Hummingbird
import Templates

/// Checks a `POST /v1/jobs` body (read already, within its limit, by
/// `BodyLimit`) before the generated server sees it: a JSON body goes
/// through the same strict reader as a job file, so a malformed body is
/// reported at its line and column with the message the command line gives,
/// and data past the limits (size, nesting, numbers over 64 bits, text that
/// is not UTF-8) is refused before anything is decoded.
struct JobBodyCheck<Context: RequestContext>: RouterMiddleware {
    let maxBody: Int

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard request.method == .post, request.uri.path == "/v1/jobs" else { return try await next(request, context) }
        var request = request
        let buffer = try await request.collectBody(upTo: maxBody)
        let type = request.headers[.contentType]?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased()
        if type == "application/json" {
            // One level more than a job's data: the data sits under "data".
            do {
                _ = try TemplateData(json: Data(buffer.readableBytesView), file: JobSubmission.bodyName,
                                     maximumBytes: maxBody, maximumNesting: TemplateLimits.maximumDataNesting + 1)
            } catch {
                let first = error.diagnostics.first
                throw APIProblem(.badRequest, error.description, line: first?.location.line, column: first?.location.column)
            }
        }
        // The generated server would percent-encode a Location header's slashes: the id comes back through
        // a box of the request's own, and the header is added here.
        let created = CreatedJob()
        var response = try await CreatedJob.$current.withValue(created) { try await next(request, context) }
        if response.status == .created, let id = created.id.withLock({ $0 }) {
            response.headers[.location] = "/v1/jobs/\(id)"
        }
        return response
    }
}

/// The id of the job a `POST /v1/jobs` queued, handed from the handler to the middleware.
final class CreatedJob: Sendable {
    @TaskLocal static var current: CreatedJob?
    let id = Mutex<Int64?>(nil)
}
