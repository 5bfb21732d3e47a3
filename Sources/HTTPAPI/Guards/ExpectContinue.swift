import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// Answers `Expect: 100-continue` with `100 Continue` as soon as the
/// request's head is read (RFC 9110 §10.1.1). libcups sends the header with
/// every request that carries a document (Print-Job, Send-Document), as
/// CUPS's IPP backend and iOS do, and then waits up to a second for the
/// interim answer before it sends the body: without one, every job sent to
/// a role printer lost a second. The refusals that come later (a missing
/// token, a body over the limit) still come, and `RequestPace` ends such a
/// connection without reading the rest.
final class ExpectContinue: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundOut = HTTPResponsePart

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head(let request) = unwrapInboundIn(data),
           request.headerFields[.expect]?.lowercased() == "100-continue" {
            context.writeAndFlush(wrapOutboundOut(.head(HTTPResponse(status: .continue))), promise: nil)
        }
        context.fireChannelRead(data)
    }
}
