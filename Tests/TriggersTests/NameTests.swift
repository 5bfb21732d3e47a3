import Glibc
import Testing
@testable import Triggers

/// Issue 14: every name is handled as bytes; one that cannot be claimed as
/// it is goes to failed/ under a safe name, never left unseen.
@Suite("Watched folder: names", .timeLimit(.minutes(1)))
struct NameTests {
    @Test func aNameThatIsNotUTF8IsMovedAsideWithItsBytes() async throws {
        let temp = try TempFolder()
        let log = ReportLog()
        var files = try WatchedFolder(path: temp.path).claimedFiles(report: log.sink).makeAsyncIterator()
        // Sorts before good.pdf, so a listing of the folder handles it first too.
        try createFile(named: Array("a".utf8) + [0xff] + Array(".json".utf8), in: temp.path)
        try temp.write("good.pdf")
        #expect(await files.next()?.originalName == "good.pdf")
        #expect(temp.names(temp.path) == ["done", "failed", "processing"])
        let kept = try #require(temp.names(temp.sub("failed")).first { !$0.hasSuffix(".error") })
        #expect(kept.hasPrefix("unreadable-name-"))
        let reason = temp.text(temp.sub("failed", kept + ".error"))
        #expect(reason.contains("61 ff 2e 6a 73 6f 6e"), "\(reason)")
        #expect(reason.contains(#"a\xff.json"#))
        #expect(reason.contains("not valid UTF-8") && reason.contains("move it back into \(temp.path)"))
        #expect(log.reports.contains { if case .refused(kept, _) = $0 { true } else { false } })
    }

    @Test func aNameLongerThan240BytesIsMovedAsideWithItsName() async throws {
        let temp = try TempFolder()
        var files = try WatchedFolder(path: temp.path).claimedFiles().makeAsyncIterator()
        let long = String(repeating: "x", count: 245) + ".pdf"
        try temp.write(long)
        try temp.write("good.pdf")
        #expect(await files.next()?.originalName == "good.pdf")
        let kept = try #require(temp.names(temp.sub("failed")).first { !$0.hasSuffix(".error") })
        #expect(kept.hasPrefix("long-name-"))
        let reason = temp.text(temp.sub("failed", kept + ".error"))
        #expect(reason.contains("249 bytes long, more than the 240"), "\(reason)")
        #expect(reason.contains(long))
    }

    @Test func aNameOf240BytesIsClaimedAsItIs() async throws {
        let temp = try TempFolder()
        var files = try WatchedFolder(path: temp.path).claimedFiles().makeAsyncIterator()
        let longest = String(repeating: "y", count: 236) + ".pdf"
        try temp.write(longest)
        let file = try #require(await files.next())
        #expect(file.originalName == longest)
        try file.fail(reason: "kept to see its .error beside it")
        #expect(temp.names(temp.sub("failed")) == [longest, longest + ".error"])
    }

    @Test func aClaimLeftByAnOlderAgentIsStillTakenUp() {
        #expect(Claimer.originalName(ofClaim: ".claim.812.3.order.json") == "order.json")
        #expect(Claimer.originalName(ofClaim: ".cmk.1a.order.json") == "order.json")
        #expect(Claimer.originalName(ofClaim: ".tries.order.json") == nil)
    }
}
