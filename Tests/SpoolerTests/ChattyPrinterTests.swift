import Foundation
import PrintModel
import PrinterLanguages
import Simulator
import Spooler
import Testing

/// A printer that keeps talking cannot hold a session (issue 27): the raw
/// status read keeps at most a few kilobytes and ends by its deadline, where
/// it used to read on (and keep everything) for as long as bytes came.
@Suite(.timeLimit(.minutes(1))) struct ChattyPrinterTests {
    /// The number in "N bytes" in a status error: how many bytes the session
    /// read and kept while waiting for the answer.
    static func bytesKept(in text: String) -> Int? {
        guard let match = text.firstMatch(of: /(\d+) bytes/) else { return nil }
        return Int(match.1)
    }

    @Test(arguments: ["TM-T20III", "ZD420-203dpi"])
    func aPeerStreamingZerosGetsAnErrorNamingThePrinterAndAtMostTheAnswerLimitRead(model: String) async throws {
        let peer = try ChattyPeer()
        defer { peer.stop() }
        let name = "Chatty \(model)"
        let capabilities = try ModelCatalog.profile(model: model).capabilities(name: name)
        let channel = PrinterChannels.standard(timeout: .seconds(2))
            .channel(for: ChannelTarget(uri: peer.uri, name: name, capabilities: capabilities))

        let readiness = await channel.readiness()

        let problem = try #require(readiness.problem, "zeros are no status answer")
        #expect(problem.text.hasPrefix(name), "\(problem.text)")
        let kept = try #require(Self.bytesKept(in: problem.text), "\(problem.text)")
        // A status answer is a few bytes, ~HS's under 100: a 4 KB cap leaves room, and the peer sent far more.
        #expect(kept > 0 && kept <= 4096, "\(problem.text)")
        #expect(problem.text.contains("KioskPrint stopped reading"), "\(problem.text)")
        #expect(problem.text.contains("speaks the language it was saved with"), "says what to check: \(problem.text)")
    }
}
