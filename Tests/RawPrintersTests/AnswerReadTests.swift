import RawPrinters
import Simulator
import Testing

/// A bounded read of one answer against a peer that never stops talking
/// (issue 27): it keeps at most its byte limit, and its deadline holds
/// however many bytes keep coming.
@Suite("Bounded answer reads", .timeLimit(.minutes(1)))
struct AnswerReadTests {
    @Test func aFloodIsCutOffAtTheLimitOnOneThread() async throws {
        let peer = try ChattyPeer()
        defer { peer.stop() }
        let uri = RawPrinterURI.socket(host: "127.0.0.1", port: peer.port)
        let link = try await AsyncPrinterLink.open(uri, deadline: .now + .seconds(5))
        defer { link.close() }
        let answer = try await link.readAnswer(limit: 4096, deadline: .now + .seconds(30)) { _ in false }
        #expect(answer.end == .limitReached)
        #expect(answer.bytes.count == 4096, "nothing past the limit is read")
    }

    @Test func theDeadlineHoldsWhileBytesKeepComing() async throws {
        // A steady 100 KB a second: a read that went on while bytes came would never end.
        let peer = try ChattyPeer(bytesPerSecond: 100_000)
        defer { peer.stop() }
        let uri = RawPrinterURI.socket(host: "127.0.0.1", port: peer.port)
        let link = try await AsyncPrinterLink.open(uri, deadline: .now + .seconds(5))
        defer { link.close() }
        let answer = try await link.readAnswer(limit: 1 << 20, deadline: .now + .milliseconds(300)) { _ in false }
        #expect(answer.end == .deadlinePassed)
        #expect(!answer.bytes.isEmpty && answer.bytes.count < 1 << 20)
    }

    @Test func anAnswerEndsTheReadAtOnce() async throws {
        let listener = try LoopbackListener()
        let uri = RawPrinterURI.socket(host: "127.0.0.1", port: listener.port)
        let answer = try await offloaded {
            let link = try RawLinks.open(uri, deadline: .now + .seconds(5))
            defer { link.close() }
            try listener.accept()
            try listener.send([0x02, 0x41, 0x03])
            return try link.readAnswer(limit: 4096, deadline: .now + .seconds(30)) { $0.last == 0x03 }
        }
        #expect(answer == AnswerRead(bytes: [0x02, 0x41, 0x03], end: .complete))
    }
}
