import NIOCore
import NIOHTTPTypes

/// Keeps a slow or refused client from holding a connection, in the HTTP
/// pipeline itself (after the HTTP decoder, before Hummingbird's handler):
///
/// - A request's body must keep coming: after a grace period it must have
///   arrived at `minimumRate` bytes a second on average, else the connection
///   is closed. Hummingbird's idle timer alone restarts at every body part, so
///   a body trickled a byte every 20 s would hold its connection for ever.
/// - An answer written before its request was read to the end (a refusal:
///   no token, over the body limit, too many requests) ends the connection
///   instead of reading, and discarding, the rest of the body for as long as
///   the client sends it: the sending side is shut once the answer is out,
///   and the connection closed when the client stops or after `linger`
///   (closing at once, with the client's bytes unread, would reset the
///   connection and could lose the answer on the client's side).
///
/// With both, the 256 connections a listener takes cannot all be held by
/// clients that send nothing worth reading, and `/healthz` and a real till
/// are served while such clients come and go.
final class RequestPace: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    /// How a request's body is paced; one value serves every connection.
    struct Rules: Sendable {
        /// How long a body may take before the rate counts.
        var grace: TimeAmount = .seconds(10)
        /// The least average rate after the grace period, in bytes a second.
        var minimumRate = 16_384
        /// How long a refused request's client may go on sending before the connection is closed.
        var linger: TimeAmount = .seconds(2)
    }

    private let rules: Rules
    /// When the request being read began (its head), nil between requests.
    private var started: NIODeadline?
    private var received = 0
    private var check: Scheduled<Void>?
    /// The close of a connection whose request was answered before it was read.
    private var lingering: Scheduled<Void>?

    init(rules: Rules = Rules()) { self.rules = rules }

    /// When the body read so far stops being enough: the grace period, plus the time its bytes buy at the least rate.
    private var deadline: NIODeadline? {
        started.map { $0 + rules.grace + .nanoseconds(Int64(received) * 1_000_000_000 / Int64(max(1, rules.minimumRate))) }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            started = context.eventLoop.now
            received = 0
            schedule(context)
        case .body(let buffer):
            received += buffer.readableBytes
        case .end:
            started = nil
            check?.cancel()
            check = nil
            // The refused client has stopped sending: its answer is out, nothing more will come.
            if lingering != nil {
                context.close(promise: nil)
                return
            }
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard case .end = unwrapOutboundIn(data), started != nil else {
            context.write(data, promise: promise)
            return
        }
        // Answered before the request was read to its end: end the connection rather than read the rest.
        started = nil
        check?.cancel()
        check = nil
        context.writeAndFlush(data, promise: promise)
        let halfClosed = context.eventLoop.makePromise(of: Void.self)
        context.close(mode: .output, promise: halfClosed)
        halfClosed.futureResult.assumeIsolated().whenFailure { _ in context.close(promise: nil) }
        lingering = context.eventLoop.assumeIsolated().scheduleTask(in: rules.linger) { context.close(promise: nil) }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        check?.cancel()
        check = nil
        lingering?.cancel()
        lingering = nil
    }

    /// Looks again at the deadline as it stands then: bytes that came meanwhile move it on.
    private func schedule(_ context: ChannelHandlerContext) {
        check?.cancel()
        guard let deadline else { return }
        let loop = context.eventLoop.assumeIsolated()
        check = loop.scheduleTask(deadline: deadline) { [self] in
            check = nil
            guard let now = self.deadline else { return }
            if now <= context.eventLoop.now {
                context.close(promise: nil)
            } else {
                schedule(context)
            }
        }
    }
}
