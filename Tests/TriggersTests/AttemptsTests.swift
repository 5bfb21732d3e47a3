import Glibc
import Testing
@testable import Triggers

/// Issue 14: a file that stops the agent every time it is handled is
/// offered a limited number of times, then kept in failed/ with its reason.
@Suite("Watched folder: attempts", .timeLimit(.minutes(1)))
struct AttemptsTests {
    /// Runs an agent on the folder until it offers its first file, then
    /// stops it without finishing that file, as a crash would.
    func firstOffer(_ temp: TempFolder, log: ReportLog = ReportLog()) async throws -> String? {
        let folder = try WatchedFolder(path: temp.path)
        // The stream lives only in the task: once it returns, the agent's watch ends.
        let consumer = Task { () -> String? in
            guard let files = try? folder.claimedFiles(report: log.sink) else { return nil }
            for await file in files { return file.originalName }
            return nil
        }
        let name = await consumer.value
        await waitForAgentLock(temp)
        return name
    }

    @Test func aFileOfferedThreeTimesWithoutFinishingIsQuarantinedWithItsReason() async throws {
        let temp = try TempFolder()
        try temp.write("crasher.pdf")
        for _ in 1...Attempts.limit {
            #expect(try await firstOffer(temp) == "crasher.pdf")
        }
        try temp.write("next.pdf")
        let log = ReportLog()
        #expect(try await firstOffer(temp, log: log) == "next.pdf")
        #expect(temp.names(temp.sub("failed")) == ["crasher.pdf", "crasher.pdf.error"])
        let reason = temp.text(temp.sub("failed", "crasher.pdf.error"))
        #expect(reason.contains("crasher.pdf was taken up 3 times and never finished"), "\(reason)")
        #expect(reason.contains("move it back into \(temp.path)"))
        #expect(log.reports.contains { if case .refused("crasher.pdf", _) = $0 { true } else { false } })
        #expect(!temp.names(temp.sub("processing")).contains { $0.hasPrefix(".tries.") && $0 != ".tries.next.pdf" })
    }

    @Test func aFileMovedBackFromFailedStartsAgainFromItsFirstAttempt() async throws {
        let temp = try TempFolder()
        var files = try WatchedFolder(path: temp.path).claimedFiles().makeAsyncIterator()
        try temp.write("order.pdf")
        let file = try #require(await files.next())
        #expect(Attempts.count(file.name, in: try temp.processing()) == 1)
        try file.fail(reason: "order.pdf was not printed: the disk is full.")
        #expect(!temp.names(temp.sub("processing")).contains(".tries.order.pdf"))
    }
}

extension TempFolder {
    func processing() throws -> Directory { try Directory.open(path).subfolder("processing") }
}
