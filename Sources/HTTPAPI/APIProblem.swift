import Foundation
public import Hummingbird
import OpenAPIRuntime

/// An error the API answers with: RFC 9457 problem details
/// (`application/problem+json`), carrying the same message the command
/// line would print, and where it applies the field, line and column.
public struct APIProblem: Error, HTTPResponseError, Sendable {
    public var status: HTTPResponse.Status
    public var detail: String
    public var field: String?
    public var line: Int?
    public var column: Int?
    public var headers: HTTPFields = [:]

    public init(_ status: HTTPResponse.Status, _ detail: String, field: String? = nil, line: Int? = nil, column: Int? = nil) {
        self.status = status
        self.detail = detail
        self.field = field
        self.line = line
        self.column = column
    }

    /// The body, with the keys in a fixed order so that responses are stable.
    var body: Data {
        var object: [String: Any] = ["type": "about:blank", "title": status.reasonPhrase, "status": status.code, "detail": detail]
        if let field { object["field"] = field }
        if let line { object["line"] = line }
        if let column { object["column"] = column }
        return (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
    }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        var fields = headers
        fields[.contentType] = "application/problem+json"
        return Response(status: status, headers: fields, body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }
}

/// Turns every error a request meets into a problem response: the API's own
/// problems as they are, the generated server's decoding failures (a bad
/// parameter, a body that does not fit the schema) as 400, Hummingbird's
/// HTTP errors with their status, and anything else as 500 with the error
/// logged. A request never takes the agent down.
struct ProblemMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch {
            return try Self.problem(for: error, context: context).response(from: request, context: context)
        }
    }

    static func problem(for error: any Error, context: Context) -> APIProblem {
        if let problem = error as? APIProblem { return problem }
        if let server = error as? ServerError {
            if let problem = server.underlyingError as? APIProblem { return problem }
            // Thrown before the handler had its input (a body, a parameter or a query string that does not
            // parse): the request does not fit the contract, whatever the generated code's error says.
            if server.operationInput == nil || server.underlyingError is DecodingError
                || server.causeDescription.lowercased().contains("decod")
                || server.causeDescription.lowercased().contains("content type") {
                let status: HTTPResponse.Status = server.causeDescription.lowercased().contains("content type")
                    ? .unsupportedMediaType : .badRequest
                return APIProblem(status, "The request does not fit the API (see /v1/openapi.json): \(Self.describe(server.underlyingError))")
            }
            return problem(for: server.underlyingError, context: context)
        }
        if let http = error as? HTTPError {
            let detail = http.status == .contentTooLarge
                ? "The request body is larger than the API takes ([http] max-body in the agent's configuration)."
                : (http.body ?? http.status.reasonPhrase)
            return APIProblem(http.status, detail)
        }
        context.logger.error("HTTP API: \(error)")
        return APIProblem(.internalServerError, "The agent could not answer this request: \(error). It is logged; the agent goes on printing.")
    }

    /// A decoding error in a sentence: what was wrong, at which key.
    static func describe(_ error: any Error) -> String {
        guard let decoding = error as? DecodingError else { return "\(error)" }
        switch decoding {
        case .keyNotFound(let key, let context):
            return "\"\(path(context.codingPath + [key]))\" is missing."
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            let at = path(context.codingPath)
            return (at.isEmpty ? "" : "\"\(at)\": ") + context.debugDescription
        @unknown default:
            return "\(decoding)"
        }
    }

    private static func path(_ keys: [any CodingKey]) -> String {
        keys.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".").replacingOccurrences(of: ".[", with: "[")
    }
}
