import Glibc
import Synchronization
import Testing
@testable import Triggers

@Suite("Watched folder", .timeLimit(.minutes(1)))
struct WatchedFolderTests {
    @Test func writtenFileIsClaimedOnceIntoProcessing() async throws {
        let temp = try TempFolder()
        let folder = try WatchedFolder(path: temp.path)
        var files = try folder.claimedFiles().makeAsyncIterator()
        try temp.write("ticket.pdf")
        let file = try #require(await files.next())
        #expect(file.originalName == "ticket.pdf")
        #expect(file.path == temp.sub("processing", "ticket.pdf"))
        #expect(temp.exists(file.path))
        #expect(!temp.exists(temp.sub("ticket.pdf")))
        // A later file comes next: the first was not offered twice.
        try temp.write("second.pdf")
        #expect(await files.next()?.originalName == "second.pdf")
    }

    @Test func subfoldersAreCreatedWithMode0750() throws {
        let temp = try TempFolder()
        _ = try WatchedFolder(path: temp.path)
        for name in ["processing", "done", "failed"] {
            var info = stat()
            #expect(lstat(temp.sub(name), &info) == 0)
            #expect(info.st_mode & 0o777 == 0o750 & ~umaskValue())
        }
    }

    @Test func missingFolderIsAnErrorSayingWhatToDo() {
        #expect(throws: TriggerError.self) { try WatchedFolder(path: "/nonexistent/kioskprint-drop") }
    }

    @Test func fileRenamedInIsClaimed() async throws {
        let temp = try TempFolder()
        var files = try WatchedFolder(path: temp.path).claimedFiles().makeAsyncIterator()
        // The usual writer pattern: write under a .tmp name, then rename.
        try temp.write("job.tmp")
        #expect(rename(temp.sub("job.tmp"), temp.sub("job.pdf")) == 0)
        #expect(await files.next()?.originalName == "job.pdf")
        try temp.write("other.pdf", in: temp.staging)
        try temp.moveIn("other.pdf")
        #expect(await files.next()?.originalName == "other.pdf")
    }

    @Test func hiddenAndIncompleteNamesAreLeftAlone() async throws {
        let temp = try TempFolder()
        var files = try WatchedFolder(path: temp.path).claimedFiles().makeAsyncIterator()
        for name in [".hidden.pdf", "upload.tmp", "upload.part", "backup.pdf~"] { try temp.write(name) }
        try temp.write("real.pdf")
        #expect(await files.next()?.originalName == "real.pdf")
        #expect(temp.names(temp.path) == [".hidden.pdf", "backup.pdf~", "done", "failed", "processing",
                                          "upload.part", "upload.tmp"])
        #expect(temp.names(temp.sub("processing")).filter { !$0.hasPrefix(".") } == ["real.pdf"])
    }

    @Test func filesPresentBeforeStartAndLeftInProcessingAreOffered() async throws {
        let temp = try TempFolder()
        try temp.write("early-a.pdf")
        try temp.write("early-b.pdf")
        let folder = try WatchedFolder(path: temp.path)
        try temp.write("interrupted.pdf", in: temp.sub("processing"))
        var files = try folder.claimedFiles().makeAsyncIterator()
        var seen: [String] = []
        for _ in 0..<3 { seen.append(try #require(await files.next()).originalName) }
        #expect(seen == ["interrupted.pdf", "early-a.pdf", "early-b.pdf"])
        try temp.write("late.pdf")
        #expect(await files.next()?.originalName == "late.pdf")
    }

    @Test func twoAgentsClaimEachOfFiftyFilesExactlyOnce() async throws {
        let temp = try TempFolder()
        let agents = [try WatchedFolder(path: temp.path), try WatchedFolder(path: temp.path)]
        let (merged, sink) = AsyncStream<(agent: Int, file: ClaimedFile)>.makeStream()
        var consumers: [Task<Void, Never>] = []
        for (index, agent) in agents.enumerated() {
            let stream = try agent.claimedFiles()
            consumers.append(Task { for await file in stream { sink.yield((index, file)) } })
        }
        defer { consumers.forEach { $0.cancel() } }
        // Half before the agents have listed the folder, half while they watch.
        for number in 0..<50 { try temp.write("job-\(number).pdf") }
        var claims: [String] = []
        var byAgent = [0, 0]
        for await claim in merged {
            claims.append(claim.file.originalName)
            byAgent[claim.agent] += 1
            if claims.count == 50 { break }
        }
        #expect(Set(claims).count == 50)
        #expect(Set(claims) == Set((0..<50).map { "job-\($0).pdf" }))
        #expect(temp.names(temp.sub("processing")).filter { !$0.hasPrefix(".") }.count == 50)
        #expect(temp.names(temp.path) == ["done", "failed", "processing"])
    }

    @Test func symlinkAndFifoAreRefusedIntoFailed() async throws {
        let temp = try TempFolder()
        var files = try WatchedFolder(path: temp.path).claimedFiles().makeAsyncIterator()
        try temp.write("target.pdf", in: temp.staging)
        #expect(symlink(temp.staging + "/target.pdf", temp.staging + "/ticket.pdf") == 0)
        #expect(mkfifo(temp.staging + "/pipe.pdf", 0o644) == 0)
        try temp.moveIn("ticket.pdf")
        try temp.moveIn("pipe.pdf")
        try temp.write("good.pdf")
        // Events are handled in order, so the refusals are done by now.
        #expect(await files.next()?.originalName == "good.pdf")
        let failed = temp.sub("failed")
        #expect(temp.names(failed) == ["pipe.pdf", "pipe.pdf.error", "ticket.pdf", "ticket.pdf.error"])
        let linkError = temp.text(failed + "/ticket.pdf.error")
        #expect(linkError.contains("ticket.pdf is a symbolic link"))
        #expect(linkError.contains("Copy the file itself into the folder."))
        #expect(temp.text(failed + "/pipe.pdf.error").contains("pipe.pdf is a named pipe"))
        // The link was moved, not followed: its target is untouched.
        #expect(temp.exists(temp.staging + "/target.pdf"))
    }

    @Test func linksPipesAndFoldersMadeInPlaceAreRefusedAtOnceAndSaidToTheLog() async throws {
        let temp = try TempFolder()
        let told = Mutex<[String]>([])
        var files = try WatchedFolder(path: temp.path).claimedFiles { report in
            if case .refused(let name, let explanation) = report { told.withLock { $0.append("\(name): \(explanation)") } }
        }.makeAsyncIterator()
        // Made in the folder itself: only IN_CREATE announces these, and no close follows.
        #expect(symlink("/etc/passwd", temp.sub("passwd.pdf")) == 0)
        #expect(mkfifo(temp.sub("pipe.pdf"), 0o644) == 0)
        #expect(mkdir(temp.sub("a-folder"), 0o755) == 0)
        try temp.write("good.pdf")
        // Events are handled in order, so the refusals are done by now.
        #expect(await files.next()?.originalName == "good.pdf")
        #expect(temp.names(temp.sub("failed")) == ["a-folder", "a-folder.error", "passwd.pdf", "passwd.pdf.error",
                                                   "pipe.pdf", "pipe.pdf.error"])
        let lines = told.withLock { $0 }
        #expect(lines.count == 3)
        #expect(lines.contains { $0.hasPrefix("passwd.pdf: passwd.pdf is a symbolic link") }, "\(lines)")
    }

    @Test func refusedEntriesPresentAtStartAreMovedToo() async throws {
        let temp = try TempFolder()
        #expect(symlink("/etc/passwd", temp.sub("passwd.pdf")) == 0)
        #expect(mkdir(temp.sub("a-folder"), 0o755) == 0)
        try temp.write("good.pdf")
        var files = try WatchedFolder(path: temp.path).claimedFiles().makeAsyncIterator()
        #expect(await files.next()?.originalName == "good.pdf")
        #expect(temp.names(temp.sub("failed")) == ["a-folder", "a-folder.error", "passwd.pdf", "passwd.pdf.error"])
        #expect(temp.text(temp.sub("failed", "a-folder.error")).contains("a-folder is a folder"))
    }

    @Test func oversizedFileIsRefused() async throws {
        let temp = try TempFolder()
        let folder = try WatchedFolder(path: temp.path, options: .init(maxFileSize: 100))
        var files = try folder.claimedFiles().makeAsyncIterator()
        try temp.write("huge.pdf", bytes: 101)
        try temp.write("small.pdf", bytes: 100)
        #expect(await files.next()?.originalName == "small.pdf")
        #expect(temp.names(temp.sub("failed")) == ["huge.pdf", "huge.pdf.error"])
        let message = temp.text(temp.sub("failed", "huge.pdf.error"))
        #expect(message.contains("huge.pdf is 101 bytes, more than the 100 bytes"))
        #expect(message.contains("raise the folder's size limit"))
    }

    @Test func finishMovesToDoneAndKeepsOnlyTheNewest() async throws {
        let temp = try TempFolder()
        let folder = try WatchedFolder(path: temp.path, options: .init(doneLimit: 3))
        var files = try folder.claimedFiles().makeAsyncIterator()
        for name in ["a", "b", "c", "d", "e"] {
            try temp.write("\(name).pdf")
            let file = try #require(await files.next())
            let finished = try file.finish()
            #expect(finished == temp.sub("done", "\(name).pdf"))
            #expect(!temp.exists(file.path))
        }
        #expect(temp.names(temp.sub("done")) == ["c.pdf", "d.pdf", "e.pdf"])
    }

    /// `done/` is listed at the first finish and once per `doneLimit`
    /// finishes after it, not after every file (DoneIndex): with 1,000 files
    /// there, listing them after each receipt cost the agent about 2 ms a receipt.
    @Test func doneIsListedOncePerTurnOfTheLimitNotAfterEveryFile() async throws {
        let temp = try TempFolder()
        let folder = try WatchedFolder(path: temp.path, options: .init(doneLimit: 3))
        for (second, name) in ["old1.pdf", "old2.pdf", "old3.pdf", "old4.pdf"].enumerated() { try temp.writeFinishedLongAgo(name, second: second + 1) }
        var files = try folder.claimedFiles().makeAsyncIterator()
        func finishNext(_ name: String) async throws {
            try temp.write(name)
            try #require(await files.next()).finish()
        }

        try await finishNext("a.pdf")   // the first finish lists done/: the three newest stay
        #expect(temp.names(temp.sub("done")) == ["a.pdf", "old3.pdf", "old4.pdf"])
        try temp.writeFinishedLongAgo("stray.pdf", second: 0)   // put there after the listing, and older than all
        for name in ["b.pdf", "c.pdf", "d.pdf"] { try await finishNext(name) }
        #expect(temp.names(temp.sub("done")) == ["b.pdf", "c.pdf", "d.pdf", "stray.pdf"],
                "each finish removed the oldest it knew of, without listing the folder again")
        try await finishNext("e.pdf")   // the fourth finish since the listing lists again
        #expect(temp.names(temp.sub("done")) == ["c.pdf", "d.pdf", "e.pdf"])
    }

    @Test func sameNameTwiceIsKeptApart() async throws {
        let temp = try TempFolder()
        var files = try WatchedFolder(path: temp.path).claimedFiles().makeAsyncIterator()
        try temp.write("ticket.pdf")
        let first = try #require(await files.next())
        try temp.write("ticket.pdf")
        let second = try #require(await files.next())
        #expect(first.path != second.path)
        #expect(second.path == temp.sub("processing", "ticket-2.pdf"))
        try first.finish()
        #expect(try second.finish() == temp.sub("done", "ticket-2.pdf"))
    }

    @Test func failWritesTheReasonAndKeepsTheInput() async throws {
        let temp = try TempFolder()
        var files = try WatchedFolder(path: temp.path).claimedFiles().makeAsyncIterator()
        try temp.write("order.json", bytes: 42)
        let file = try #require(await files.next())
        let reason = "order.json names the printer role \"bar\", which is not set up. Assign a printer to \"bar\" and drop the file again."
        #expect(try file.fail(reason: reason) == temp.sub("failed", "order.json"))
        #expect(temp.text(temp.sub("failed", "order.json.error")) == reason + "\n")
        #expect(temp.text(temp.sub("failed", "order.json")).utf8.count == 42)
    }

    @Test func inotifyParsingHandlesOverflowAndPadding() {
        var bytes: [UInt8] = []
        func event(mask: Int32, name: String, padded: Int) {
            for value in [UInt32(1), UInt32(bitPattern: mask), 0, UInt32(padded)] {
                withUnsafeBytes(of: value) { bytes.append(contentsOf: $0) }
            }
            var nameBytes = Array(name.utf8)
            nameBytes += [UInt8](repeating: 0, count: padded - nameBytes.count)
            bytes += nameBytes
        }
        event(mask: Int32(IN_CLOSE_WRITE), name: "a.pdf", padded: 16)
        event(mask: Int32(IN_Q_OVERFLOW), name: "", padded: 0)
        event(mask: Int32(IN_MOVED_TO), name: "b.pdf", padded: 8)
        var gone = false
        #expect(InotifyWatcher.parse(bytes[...], folderGone: &gone) == [.arrived("a.pdf"), .lost, .arrived("b.pdf")])
        #expect(!gone)
    }
}

private func umaskValue() -> mode_t {
    let current = umask(0o022)
    umask(current)
    return current
}
