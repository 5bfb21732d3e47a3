package import Foundation
package import HTTPAPI
package import HTTPTypes
import Hummingbird
import Logging
package import NIOCore
import NIOEmbedded

/// The API's routes with every guard (path, host, origin, token, body limit,
/// problem answers) answering one request at a time in this process, with no
/// listener: how the fuzzer drives the request path, and how tests can.
/// A module of its own so that the shipped agent does not link NIOEmbedded.
package struct InProcessAPI: Sendable {
    private let responder: RouterResponder<BasicRequestContext>
    private let logger = Logger(label: "kioskprint.api.in-process")
    /// The channel every request's context names: one for the process, never a listener's.
    private let channel: any Channel = EmbeddedChannel()

    /// The routes `server` serves on a loopback TCP listener.
    package init(server: APIServer) throws {
        responder = try server.makeRouter(limiter: RateLimiter(perSecond: server.settings.rateLimit), loopbackOnly: true,
                                          secure: false).buildResponder()
    }

    /// A request's answer: its status and headers, and its body when the answer had one in full.
    package struct Answer: Sendable {
        package var status: Int
        package var headers: HTTPFields
    }

    /// Answers `head` with `body`; never throws (every error is an answer).
    package func respond(_ head: HTTPRequest, body: ByteBuffer) async -> Answer {
        let context = BasicRequestContext(source: .init(channel: channel, logger: logger))
        let request = Request(head: head, body: .init(buffer: body))
        do {
            let response = try await responder.respond(to: request, context: context)
            return Answer(status: response.status.code, headers: response.headers)
        } catch let error as any HTTPResponseError {
            return Answer(status: error.status.code, headers: (try? error.response(from: request, context: context))?.headers ?? [:])
        } catch {
            return Answer(status: 500, headers: [:])
        }
    }

    /// Reads `METHOD TARGET`, header lines and a blank line, then the body, as
    /// a client would write them (line ends `\n` or `\r\n`); nil when the
    /// first line is not a method and a target.
    package static func request(from bytes: Data) -> (head: HTTPRequest, body: ByteBuffer)? {
        let separator = bytes.range(of: Data("\n\n".utf8)) ?? bytes.range(of: Data("\r\n\r\n".utf8))
        let headText = String(decoding: bytes[..<(separator?.lowerBound ?? bytes.endIndex)], as: UTF8.self)
        var lines = headText.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
            .map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "\r")) }
        guard !lines.isEmpty else { return nil }
        let first = lines.removeFirst().split(separator: " ", maxSplits: 1)
        guard first.count == 2, let method = HTTPRequest.Method(String(first[0])) else { return nil }
        var fields = HTTPFields()
        var authority = "127.0.0.1"
        for line in lines {
            guard let colon = line.firstIndex(of: ":"), let name = HTTPField.Name(String(line[..<colon])) else { continue }
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            if name.canonicalName == "host" { authority = value; continue }
            fields.append(HTTPField(name: name, value: value))
        }
        let body = separator.map { ByteBuffer(bytes: bytes[$0.upperBound...]) } ?? ByteBuffer()
        return (HTTPRequest(method: method, scheme: "http", authority: authority, path: String(first[1]), headerFields: fields), body)
    }
}
