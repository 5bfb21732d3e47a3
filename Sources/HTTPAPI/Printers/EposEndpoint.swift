import PosMarkup
import Foundation
import Hummingbird
import HTTPTypes
import KioskConfiguration
import Logging
import NIOCore
import PrintModel
import PrinterLanguages
import RolePrinters
import Spooler
import Store

/// `POST /cgi-bin/epos/service.cgi?devid=ROLE&timeout=MS`: each role with
/// `epos = true` answers as an Epson printer's ePOS-Print service, for web
/// POS pages built on Epson's SDK (and Odoo's Epson printer). The request is
/// queued as a job of the role, drawn by KioskPrint for whatever printer
/// holds it, and answered, as Epson's printer does, once it has printed:
/// `success`, the `code` of what stopped it (`EPTR_REC_EMPTY` ...), the ASB
/// `status` bits of the role's printer. A job that has not printed when the
/// request's timeout runs out is cancelled, so that a POS that prints again
/// after `success="false"` gets one receipt, not two.
struct EposEndpoint: Sendable {
    let printing: AnsweredPrint
    let drawer: CashDrawer
    let status: RoleStatus
    /// The roles served, by the `devid` each answers to.
    let devices: [String: Role]
    let settings: PosClientSettings
    let listen: ListenAddress
    let maxBody: Int
    let logger: Logger

    static let path = "/cgi-bin/epos/service.cgi"
    /// Epson's longest timeout; the default, 60 s, when a request gives none.
    static let longestWait = Duration.seconds(300), defaultWait = Duration.seconds(60)

    func add(to router: Router<PrinterRequestContext>, limiter: RateLimiter, secure: Bool) {
        let group = router.group(RouterPath(Self.path))
            .add(middleware: PosClientGate(settings: settings, service: ("ePOS-Print", "epos"), listen: listen,
                                         store: printing.intake.store, limiter: limiter))
            .add(middleware: CrossOrigin(allowed: settings.origins, secure: secure,
                                         headers: "content-type, soapaction, if-modified-since", setting: ("epos", "origins")))
        group.post { request, context in try await answer(request, context: context) }
        // A browser's preflight: CrossOrigin answers one from an allowed origin; without an Origin there is nothing to allow.
        group.on("", method: .options) { _, _ in Response(status: .noContent) }
    }

    private func answer(_ request: Request, context: PrinterRequestContext) async throws -> Response {
        let buffer: ByteBuffer
        do { buffer = try await request.body.collect(upTo: maxBody) } catch is NIOTooManyBytesError {
            return Self.reply(EposResponse(success: false, code: "RequestEntityTooLarge", status: EposResponse.printSuccess),
                              problem: "the request is larger than \(maxBody) bytes ([http] max-body)")
        }
        let body = Data(buffer.readableBytesView)
        let parsed: EposRequest
        do { parsed = try EposRequest.parse(body) } catch {
            logger.warning("ePOS-Print request from \(context.client) refused: \(error.message)")
            return Self.reply(EposResponse(success: false, code: "SchemaError", status: EposResponse.printSuccess), problem: error.message)
        }
        let query = request.uri.queryParameters
        let devid = query.get("devid") ?? parsed.deviceID ?? ""
        guard let role = devices[devid] else {
            let served = devices.keys.sorted().joined(separator: ", ")
            return Self.reply(EposResponse(success: false, code: "DeviceNotFound", status: EposResponse.printSuccess, deviceID: devid),
                              problem: "no role answers to devid \"\(devid.prefix(64))\"; served: \(served)")
        }
        let wait = min(Self.longestWait, query.get("timeout").flatMap(Int.init).map { Duration.milliseconds(max(1, $0)) }
                       ?? parsed.timeout.map { .milliseconds(max(1, $0)) } ?? Self.defaultWait)
        let reply = { (success: Bool, code: String, printed: Bool, snapshot: RoleStatus.Snapshot) in
            Self.reply(EposResponse(success: success, code: code, status: EposResponse.bits(of: snapshot.status, printed: printed),
                                    printJobID: parsed.printJobID, deviceID: devid))
        }
        if parsed.asksStatusOnly {
            return reply(true, "", false, await status.snapshot(of: role))
        }
        if parsed.onlyKicksDrawer {
            let opened = try? await drawer.open(role: role)
            let snapshot = await status.snapshot(of: role)
            return reply(opened.map { if case .pulsed = $0.outcome { true } else { false } } ?? false,
                         opened == nil ? "EX_BADPORT" : "", false, snapshot)
        }
        let outcome = await printing.print(body, named: "epos-request.xml", role: role, jobName: "\(role) ePOS-Print from \(context.client)",
                                           source: "epos \(context.client)", wait: wait)
        let snapshot = await status.snapshot(of: role)
        switch outcome {
        case .printed, .queued:
            return reply(true, "", true, snapshot)
        case .notPrinted(let reason):
            let code = EposResponse.code(of: snapshot.status) ?? "EX_TIMEOUT"
            logger.warning("ePOS-Print job for \(role) from \(context.client) did not print: \(reason)")
            return reply(false, code, false, snapshot)
        case .refused(let reason):
            logger.warning("ePOS-Print job for \(role) from \(context.client) refused: \(reason)")
            return Self.reply(EposResponse(success: false, code: "PrintSystemError", status: EposResponse.bits(of: snapshot.status, printed: false),
                                           printJobID: parsed.printJobID, deviceID: devid), problem: reason)
        }
    }

    /// HTTP 200 with the SOAP answer; a refusal's reason in `X-KioskPrint-Problem` for the developer reading it with curl.
    static func reply(_ response: EposResponse, problem: String? = nil) -> Response {
        var headers: HTTPFields = [.contentType: "text/xml; charset=utf-8", .cacheControl: "no-store"]
        if let problem {
            headers[ProblemHeader.name] = ProblemHeader.value(problem)
        }
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: response.xml)))
    }
}
