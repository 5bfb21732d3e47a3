import Glibc
import Testing
@testable import Triggers

/// Issue 27, case 12: a move is a link under the new name, then an unlink of
/// the old one. An agent killed between the two leaves one file under two
/// names; the next start finishes the move instead of offering the file again.
@Suite("A move the agent stopped in the middle of", .timeLimit(.minutes(1)))
struct InterruptedMoveTests {
    @Test func aFileAlreadyLinkedIntoDoneIsNotOfferedAgainAndEndsInDoneOnce() async throws {
        let temp = try TempFolder()
        let folder = try WatchedFolder(path: temp.path)
        // As a kill between finish()'s link into done/ and its unlink leaves it.
        try temp.write("order.pdf", in: temp.sub("processing"))
        #expect(link(temp.sub("processing", "order.pdf"), temp.sub("done", "order.pdf")) == 0)
        let log = ReportLog()
        var files = try folder.claimedFiles(report: log.sink).makeAsyncIterator()
        try temp.write("late.pdf")
        #expect(await files.next()?.originalName == "late.pdf", "order.pdf is not offered again")
        #expect(temp.names(temp.sub("done")) == ["order.pdf"])
        #expect(temp.names(temp.sub("processing")).filter { !$0.hasPrefix(".") } == ["late.pdf"])
        #expect(log.reports.contains { report in
            if case .recovered(let message) = report { message.hasPrefix("order.pdf was already in done/") } else { false }
        }, "\(log.reports)")
    }

    @Test func aClaimLinkedUnderItsOwnNameIsOfferedOnce() async throws {
        let temp = try TempFolder()
        let folder = try WatchedFolder(path: temp.path)
        // As a kill between a claim's link to its own name in processing/ and the claim name's unlink leaves it.
        try temp.write(".c1a.2.order.pdf", in: temp.sub("processing"))
        #expect(link(temp.sub("processing", ".c1a.2.order.pdf"), temp.sub("processing", "order.pdf")) == 0)
        var files = try folder.claimedFiles().makeAsyncIterator()
        let recovered = try #require(await files.next())
        #expect(recovered.path == temp.sub("processing", "order.pdf"))
        try temp.write("late.pdf")
        #expect(await files.next()?.originalName == "late.pdf", "the claim is not offered a second time")
        #expect(temp.names(temp.sub("processing")).filter { !$0.hasPrefix(".") } == ["late.pdf", "order.pdf"])
    }
}
