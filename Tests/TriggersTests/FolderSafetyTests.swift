import Glibc
import Testing
@testable import Triggers

/// Issue 14: whoever may drop a file into a watched folder must not make the
/// agent (run as root here) write anywhere else.
@Suite("Watched folder: links and owners", .timeLimit(.minutes(1)))
struct FolderSafetyTests {
    @Test func aFailedFolderReplacedByALinkIsNeverWrittenThrough() async throws {
        let temp = try TempFolder()
        let log = ReportLog()
        var files = try WatchedFolder(path: temp.path).claimedFiles(report: log.sink).makeAsyncIterator()
        #expect(rmdir(temp.sub("failed")) == 0)
        #expect(symlink(temp.staging, temp.sub("failed")) == 0)
        #expect(mkfifo(temp.sub("pipe.pdf"), 0o644) == 0)
        try temp.write("good.pdf")
        // Events are handled in order, so the pipe's refusal was tried by now.
        let good = try #require(await files.next())
        #expect(throws: TriggerError.self) { try good.fail(reason: "good.pdf was not printed.") }
        #expect(temp.names(temp.staging).isEmpty, "nothing is written through the link")
        let trouble = try #require(log.troubles.first, "\(log.reports)")
        #expect(trouble.contains("pipe.pdf"))
        #expect(trouble.contains("KioskPrint does not write into \(temp.sub("failed")): it is a symbolic link"), "\(trouble)")
        #expect(trouble.contains("chmod +t \(temp.path)"))
    }

    @Test func aProcessingFolderReplacedByALinkTakesNothingThroughIt() async throws {
        let temp = try TempFolder()
        let log = ReportLog()
        let files = try WatchedFolder(path: temp.path).claimedFiles(report: log.sink)
        let consumer = Task { () -> String? in
            for await file in files { return file.originalName }
            return nil
        }
        defer { consumer.cancel() }
        #expect(rename(temp.sub("processing"), temp.staging + "/old-processing") == 0)
        #expect(symlink(temp.staging, temp.sub("processing")) == 0)
        try temp.write("ticket.pdf")
        for await report in log.stream {
            if case .trouble(let message) = report, message.contains("ticket.pdf") { break }
        }
        #expect(temp.exists(temp.sub("ticket.pdf")), "left where it was dropped")
        #expect(temp.names(temp.staging) == ["old-processing"])
        #expect(log.troubles.first?.contains("\(temp.sub("processing")): it is a symbolic link") == true)
    }

    @Test func aSubfolderOfAnotherUserIsNotWrittenInto() async throws {
        let temp = try TempFolder()
        var files = try WatchedFolder(path: temp.path).claimedFiles().makeAsyncIterator()
        #expect(chown(temp.sub("done"), 4242, 4242) == 0)
        try temp.write("ticket.pdf")
        let file = try #require(await files.next())
        let error = try #require(throws: TriggerError.self) { try file.finish() }
        #expect(error.message.contains("\(temp.sub("done")): it is a folder of user 4242"), "\(error.message)")
        #expect(temp.names(temp.sub("done")).isEmpty)
        #expect(temp.exists(file.path))
    }

    @Test func aLinkInPlaceOfASubfolderAtStartIsAnErrorSayingWhatToDo() throws {
        let temp = try TempFolder()
        #expect(symlink(temp.staging, temp.sub("failed")) == 0)
        let error = try #require(throws: TriggerError.self) { try WatchedFolder(path: temp.path) }
        #expect(error.message.contains("rm -r \(temp.sub("failed"))"), "\(error.message)")
    }

    @Test func subfoldersRootMakesGoToTheOwnerOfTheWatchedFolder() throws {
        let temp = try TempFolder()
        try #require(geteuid() == 0, "this test needs root")
        #expect(chown(temp.path, 4242, 4343) == 0)
        _ = try WatchedFolder(path: temp.path)
        for name in ["processing", "done", "failed"] {
            var info = stat()
            #expect(lstat(temp.sub(name), &info) == 0)
            #expect(info.st_uid == 4242 && info.st_gid == 4343, "\(name)")
        }
    }
}
