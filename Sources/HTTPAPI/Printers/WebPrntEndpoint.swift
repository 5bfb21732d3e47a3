import Foundation
import Hummingbird
import HTTPTypes
import KioskConfiguration
import Logging
import NIOCore
import PosMarkup
import PrintModel
import RolePrinters
import Spooler

/// `POST /StarWebPRNT/SendMessage[?role=ROLE&timeout=MS]`: the roles with
/// `webprnt = true` answer as a Star printer's WebPRNT service, for web POS
/// pages built on Star's `StarWebPrintTrader`. The request is queued as a
/// job of the role, drawn by KioskPrint for whatever printer holds it, and
/// answered, as Star's printer does unless `checkedblock="false"`, once it
/// has printed: `success`, Star's `code` (`0`, or `1100` when it could not
/// print) and Star's automatic status of the role's printer in hex. A Star
/// printer is one device; `role=` picks the role where several are served,
/// and may be left out where one is.
struct WebPrntEndpoint: Sendable {
    let printing: AnsweredPrint
    let drawer: CashDrawer
    let status: RoleStatus
    let roles: Set<Role>
    let settings: PosClientSettings
    let listen: ListenAddress
    let maxBody: Int
    let logger: Logger

    static let path = "/StarWebPRNT/SendMessage"
    /// The Trader gives up after 90 s by default: a job not printed in 60 s is cancelled first, and the answer says so.
    static let defaultWait = Duration.seconds(60), longestWait = Duration.seconds(300)

    func add(to router: Router<PrinterRequestContext>, limiter: RateLimiter, secure: Bool) {
        let group = router.group(RouterPath(Self.path))
            .add(middleware: PosClientGate(settings: settings, service: ("WebPRNT", "webprnt"), listen: listen,
                                           store: printing.intake.store, limiter: limiter))
            .add(middleware: CrossOrigin(allowed: settings.origins, secure: secure, headers: "content-type",
                                         setting: ("webprnt", "origins")))
        group.post { request, context in try await answer(request, context: context) }
        group.on("", method: .options) { _, _ in Response(status: .noContent) }
    }

    private func answer(_ request: Request, context: PrinterRequestContext) async throws -> Response {
        let query = request.uri.queryParameters
        guard let role = chosenRole(query.get("role")) else {
            let served = roles.map(\.description).sorted().joined(separator: ", ")
            return Self.refusal(.notFound, query.get("role").map { "no role named \"\($0.prefix(64))\" is served over WebPRNT; served: \(served)" }
                ?? "several roles are served over WebPRNT (\(served)): add ?role=NAME to the printer's URL in the POS")
        }
        let buffer: ByteBuffer
        do { buffer = try await request.body.collect(upTo: maxBody) } catch is NIOTooManyBytesError {
            return Self.refusal(.contentTooLarge, "the request is larger than \(maxBody) bytes ([http] max-body)")
        }
        let body = Data(buffer.readableBytesView)
        let parsed: WebPrntRequest
        do { parsed = try WebPrntRequest.parse(body) } catch {
            logger.warning("WebPRNT request from \(context.client) refused: \(error.message)")
            return Self.refusal(.badRequest, error.message)
        }
        let reply = { (printed: Bool, snapshot: RoleStatus.Snapshot) in
            Self.reply(WebPrntResponse(success: printed, code: printed ? WebPrntResponse.succeeded : WebPrntResponse.offline,
                                       status: WebPrntResponse.statusBytes(of: snapshot.status)))
        }
        if parsed.commands.printsNothing {
            let snapshot = await status.snapshot(of: role)
            return reply(EposResponse.code(of: snapshot.status) == nil, snapshot)
        }
        if parsed.commands.onlyKicksDrawer {
            let opened = try? await drawer.open(role: role)
            return reply(opened.map { if case .pulsed = $0.outcome { true } else { false } } ?? false, await status.snapshot(of: role))
        }
        let wait = min(Self.longestWait, query.get("timeout").flatMap(Int.init).map { .milliseconds(max(1, $0)) } ?? Self.defaultWait)
        let outcome = await printing.print(body, named: "webprnt-request.xml", role: role, jobName: "\(role) WebPRNT from \(context.client)",
                                           source: "webprnt \(context.client)", wait: wait, waitsForPrint: parsed.waitsForPrint)
        let snapshot = await status.snapshot(of: role)
        switch outcome {
        case .printed, .queued:
            return reply(true, snapshot)
        case .notPrinted(let reason):
            logger.warning("WebPRNT job for \(role) from \(context.client) did not print: \(reason)")
            return reply(false, snapshot)
        case .refused(let reason):
            logger.warning("WebPRNT job for \(role) from \(context.client) refused: \(reason)")
            var response = reply(false, snapshot)
            response.headers[ProblemHeader.name] = ProblemHeader.value(reason)
            return response
        }
    }

    /// The role `role=` names, or the one role served when it names none.
    func chosenRole(_ name: String?) -> Role? {
        guard let name else { return roles.count == 1 ? roles.first : nil }
        return (try? Role(name)).flatMap { roles.contains($0) ? $0 : nil }
    }

    /// HTTP 200 with Star's answer, as `text/xml` so that the Trader's `responseXML` reads it.
    static func reply(_ response: WebPrntResponse) -> Response {
        Response(status: .ok, headers: [.contentType: "text/xml; charset=utf-8", .cacheControl: "no-store"],
                 body: .init(byteBuffer: ByteBuffer(string: response.xml)))
    }

    /// A request that is not printed at all: the Trader's `onError` gets the status and this text as `responseText`.
    static func refusal(_ status: HTTPResponse.Status, _ message: String) -> Response {
        Response(status: status, headers: [.contentType: "text/plain; charset=utf-8", .cacheControl: "no-store",
                                           ProblemHeader.name: ProblemHeader.value(message)],
                 body: .init(byteBuffer: ByteBuffer(string: "WebPRNT request not printed: \(message)\n")))
    }
}
