import HTTPTypes
@testable import HTTPAPI
import NIOCore
import NIOEmbedded
import NIOHTTPTypes
import Testing

/// The pipeline's pace keeper, on NIO's embedded channel with its clock
/// driven by the test: a trickled body loses its connection after the
/// grace period, a steady one keeps it, and an answer written before the
/// request was read closes the connection instead of reading the rest.
@Suite struct RequestPaceTests {
    static let rules = RequestPace.Rules(grace: .seconds(10), minimumRate: 1_000, linger: .seconds(2))

    static func channel() throws -> EmbeddedChannel {
        let channel = EmbeddedChannel(handler: RequestPace(rules: rules))
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 9180)).wait()
        return channel
    }

    static var head: HTTPRequestPart {
        .head(HTTPRequest(method: .post, scheme: nil, authority: "127.0.0.1", path: "/v1/jobs",
                          headerFields: [.contentLength: "100000"]))
    }

    static func bytes(_ count: Int) -> HTTPRequestPart { .body(ByteBuffer(repeating: 0x7B, count: count)) }

    /// `times` pieces of `count` bytes, one every `interval` on the channel's clock.
    static func send(_ count: Int, times: Int, every interval: TimeAmount, to channel: EmbeddedChannel) throws {
        for _ in 1...times {
            try channel.writeInbound(bytes(count))
            channel.embeddedEventLoop.advanceTime(by: interval)
        }
    }

    @Test func aBodyTrickledAByteAtATimeLosesItsConnection() throws {
        let channel = try Self.channel()
        try channel.writeInbound(Self.head)
        try Self.send(1, times: 3, every: .seconds(3), to: channel)
        #expect(channel.isActive, "still within the grace period")
        channel.embeddedEventLoop.advanceTime(by: .seconds(2))
        #expect(!channel.isActive, "closed: 3 bytes in 11 s")
    }

    @Test func aSteadyBodyKeepsItsConnectionPastTheGracePeriod() throws {
        let channel = try Self.channel()
        try channel.writeInbound(Self.head)
        try Self.send(2_000, times: 30, every: .seconds(1), to: channel)
        #expect(channel.isActive, "2,000 bytes a second, twice the least rate")
        try channel.writeInbound(HTTPRequestPart.end(nil))
        channel.embeddedEventLoop.advanceTime(by: .seconds(600))
        #expect(channel.isActive, "between requests the pace does not count (the idle timer does)")
        _ = try channel.finish()
    }

    @Test func anAnswerBeforeTheEndOfItsRequestClosesTheConnection() throws {
        let channel = try Self.channel()
        try channel.writeInbound(Self.head)
        try channel.writeInbound(Self.bytes(10))
        try channel.writeOutbound(HTTPResponsePart.head(HTTPResponse(status: .unauthorized)))
        #expect(channel.isActive)
        try channel.writeOutbound(HTTPResponsePart.end(nil))
        // The client may go on sending for a moment (so that its side reads the answer), not longer.
        try channel.writeInbound(Self.bytes(10))
        channel.embeddedEventLoop.advanceTime(by: Self.rules.linger)
        #expect(!channel.isActive, "the rest of the body is not read")
    }

    @Test func aRefusedClientThatStopsSendingIsClosedAtOnce() throws {
        let channel = try Self.channel()
        try channel.writeInbound(Self.head)
        try channel.writeOutbound(HTTPResponsePart.head(HTTPResponse(status: .contentTooLarge)))
        try channel.writeOutbound(HTTPResponsePart.end(nil))
        try channel.writeInbound(HTTPRequestPart.end(nil))
        #expect(!channel.isActive)
    }

    @Test func anAnswerAfterItsRequestKeepsTheConnection() throws {
        let channel = try Self.channel()
        try channel.writeInbound(Self.head)
        try channel.writeInbound(HTTPRequestPart.end(nil))
        try channel.writeOutbound(HTTPResponsePart.head(HTTPResponse(status: .ok)))
        try channel.writeOutbound(HTTPResponsePart.end(nil))
        #expect(channel.isActive, "keep-alive: the next request may come")
        _ = try channel.finish()
    }
}
