import Foundation
import Hummingbird
import IPP
import KioskConfiguration
import NIOCore
import PrintModel
import RolePrinters
import Store
import PosMarkup

/// The role printers' HTTP side: `POST /ipp/print/ROLE` with an
/// `application/ipp` body (RFC 8010 §4), read within the listener's limits
/// and answered by `RolePrinterServer`. The same guards as the API's: the
/// Host checked on loopback, a body no larger than `[http] max-body`, a slow
/// or half-sent request dropped (`RequestPace`), and, when
/// `[ipp] require-token` is on, HTTP Basic with a token as the password.
struct RolePrinterListener: Sendable {
    /// The IPP role printers; nil when only ePOS-Print or WebPRNT is served.
    let server: RolePrinterServer?
    /// The ePOS-Print endpoint; nil when no role has `epos = true`.
    let epos: EposEndpoint?
    /// The WebPRNT endpoint; nil when no role has `webprnt = true`.
    let webprnt: WebPrntEndpoint?
    let settings: IPPSettings
    let maxBody: Int

    /// The IPP request's attributes are read with at most this many.
    static let limits = IPPWireLimits()

    func makeRouter(limiter: RateLimiter, secure: Bool) -> Router<PrinterRequestContext> {
        let router = Router(context: PrinterRequestContext.self)
        router.add(middleware: ProblemMiddleware())
        if settings.listen.isLoopback { router.add(middleware: LoopbackHost()) }
        router.add(middleware: CanonicalPath())
        epos?.add(to: router, limiter: limiter, secure: secure)
        webprnt?.add(to: router, limiter: limiter, secure: secure)
        guard let server else { return router }
        let ipp = router.group("/ipp/print")
        if settings.requireToken { ipp.add(middleware: BasicTokenGate(store: server.intake.store, limiter: limiter)) }
        ipp.post(":role") { request, context in
            try await answer(server, request, context: context, secure: secure)
        }
        ipp.get(":role") { request, context in
            try await page(server, request, context: context, secure: secure)
        }
        // The icon is the same for every role, and says nothing of the agent: iOS fetches it before it signs in.
        ipp.get(":role/icon.png") { _, _ in
            Response(status: .ok, headers: [.contentType: "image/png", .cacheControl: "max-age=86400"],
                     body: .init(byteBuffer: ByteBuffer(bytes: PackageResources.printer_icon_png)))
        }
        return router
    }

    /// `printer-more-info`: the role printer's state, in a page a person reads.
    private func page(_ server: RolePrinterServer, _ request: Request, context: PrinterRequestContext, secure: Bool) async throws -> Response {
        let authority = request.head.authority ?? "\(settings.listen)"
        guard let name = context.parameters.get("role"), let role = try? Role(name),
              let page = await server.page(for: role, base: "\(secure ? "ipps" : "ipp")://\(authority)") else {
            throw APIProblem(.notFound, "No role printer is at \(request.uri.path).")
        }
        let status = page.statusPage.map { #"<p><a href="\#(escape($0))">The agent's status page</a></p>"# } ?? ""
        let html = """
            <!doctype html><html lang="en"><head><meta charset="utf-8"><title>\(escape(page.role.description)) role printer</title>
            <meta name="viewport" content="width=device-width"></head><body>
            <h1>\(escape(page.role.description))</h1>
            <p>Print to <code>\(escape(page.uri))</code>; jobs go to \(escape(page.printerName ?? "no printer yet")).</p>
            <p>\(escape(page.state)) (\(escape(page.reasons.joined(separator: ", ")))); \(page.queued) job\(page.queued == 1 ? "" : "s") waiting.</p>
            \(status)</body></html>
            """
        return Response(status: .ok, headers: [.contentType: "text/html; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(string: html)))
    }

    private func answer(_ server: RolePrinterServer, _ request: Request, context: PrinterRequestContext, secure: Bool) async throws -> Response {
        guard request.headers[.contentType]?.lowercased().hasPrefix("application/ipp") == true else {
            throw APIProblem(.unsupportedMediaType, "A role printer takes IPP requests: send Content-Type: application/ipp.")
        }
        if let length = request.headers[.contentLength].flatMap(Int.init), length > maxBody {
            throw BodyLimit<BasicRequestContext>.tooLarge("is \(length) bytes", limit: maxBody, setting: "[http] max-body")
        }
        let buffer: ByteBuffer
        do { buffer = try await request.body.collect(upTo: maxBody) } catch is NIOTooManyBytesError {
            throw BodyLimit<BasicRequestContext>.tooLarge("is larger than that", limit: maxBody, setting: "[http] max-body")
        }
        let bytes = Array(buffer.readableBytesView)
        let message: IPPMessage, documentOffset: Int
        do { (message, documentOffset) = try IPPMessage.decode(bytes, limits: Self.limits) } catch {
            throw APIProblem(.badRequest, "\(error)")
        }
        guard let name = context.parameters.get("role"), let role = try? Role(name) else {
            throw APIProblem(.notFound, "No role printer is at \(request.uri.path).")
        }
        let authority = request.head.authority ?? "\(settings.listen)"
        let ippRequest = RolePrinterRequest(message: message, document: Data(bytes[documentOffset...]), role: role,
                                            base: "\(secure ? "ipps" : "ipp")://\(authority)",
                                            authenticatedUser: APICaller.token?.name)
        let reply = await server.respond(to: ippRequest)
        return Response(status: .ok, headers: [.contentType: "application/ipp"],
                        body: .init(byteBuffer: ByteBuffer(bytes: reply.encoded())))
    }
}

/// `[ipp] require-token`: HTTP Basic, any user name, a token with the
/// `print` scope as the password. Basic, not Bearer: it is what iOS,
/// macOS and CUPS ask a person for when a printer answers 401.
struct BasicTokenGate<Context: RequestContext>: RouterMiddleware {
    let store: KioskStore
    let limiter: RateLimiter

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if request.method == .get && request.uri.path.hasSuffix("/icon.png") { return try await next(request, context) }
        guard let secret = TokenGate<Context>.secret(in: request.headers[.authorization]) else {
            throw Self.unauthorized("This printer asks for a user name and password: any name, and a token with the print scope "
                + "as the password (an administrator makes one with `kioskprint tokens add NAME --scope print`).")
        }
        let token: APIToken?
        do { token = try await store.authenticate(secret: secret) } catch {
            throw APIProblem(.serviceUnavailable, "The token could not be checked: \(store.explain(error)) Try again shortly.")
        }
        guard let token, token.scopes.contains(where: { $0.allows(.print) }) else {
            throw Self.unauthorized("The password is not a token with the print scope; `kioskprint tokens list` shows the tokens.")
        }
        if let wait = limiter.take(for: token.name) {
            var problem = APIProblem(.tooManyRequests, "The token \"\(token.name)\" sent too many requests; try again in \(wait) s.")
            problem.headers[.retryAfter] = String(wait)
            throw problem
        }
        return try await APICaller.$token.withValue(token) { try await next(request, context) }
    }

    static func unauthorized(_ detail: String) -> APIProblem {
        var problem = APIProblem(.unauthorized, detail)
        problem.headers[.wwwAuthenticate] = "Basic realm=\"kioskprint\", charset=\"UTF-8\""
        return problem
    }
}
