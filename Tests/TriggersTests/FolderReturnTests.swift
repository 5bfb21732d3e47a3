import Foundation
import Glibc
import Testing
@testable import Triggers

/// Issue 14: a watched folder deleted and made again is watched again.
@Suite("Watched folder: deleted and back", .timeLimit(.minutes(1)))
struct FolderReturnTests {
    @Test func aFolderDeletedAndMadeAgainIsWatchedAgain() async throws {
        let temp = try TempFolder()
        var (files, reports) = try await Self.watchedThenDeleted(temp)
        let gone = await reports.next()
        guard case .gone(let message)? = gone else { Issue.record("expected .gone, got \(String(describing: gone))"); return }
        #expect(message.contains(temp.path) && message.contains("Create it again"))

        #expect(mkdir(temp.path, 0o755) == 0)
        let back = await reports.next()
        #expect(back == .watchedAgain("The watched folder \(temp.path) is back and watched again."))
        try temp.write("second.pdf")
        #expect(await files.next()?.originalName == "second.pdf")
        #expect(temp.names(temp.path) == ["done", "failed", "processing"])
    }

    @Test func aFolderMovedAwayAndAnotherMovedInIsWatched() async throws {
        let temp = try TempFolder()
        let log = ReportLog()
        var files = try WatchedFolder(path: temp.path).claimedFiles(report: log.sink).makeAsyncIterator()
        var reports = log.stream.makeAsyncIterator()
        #expect(rename(temp.path, temp.staging + "/old") == 0)
        guard case .gone? = await reports.next() else { Issue.record("not said to be gone"); return }
        #expect(mkdir(temp.staging + "/new", 0o755) == 0)
        try temp.write("waiting.pdf", in: temp.staging + "/new")
        #expect(rename(temp.staging + "/new", temp.path) == 0)
        #expect(await files.next()?.originalName == "waiting.pdf", "a file already in the folder that came back is taken")
    }

    @Test func aFolderBackWithALinkForASubfolderIsSaidAndNotWrittenThrough() async throws {
        let temp = try TempFolder()
        var (files, reports) = try await Self.watchedThenDeleted(temp)
        defer { withExtendedLifetime(files) {} }  // dropping the files' iterator ends the watch
        guard case .gone? = await reports.next() else { Issue.record("not said to be gone"); return }
        #expect(mkdir(temp.staging + "/new", 0o755) == 0)
        #expect(symlink(temp.staging, temp.staging + "/new/failed") == 0)
        #expect(rename(temp.staging + "/new", temp.path) == 0)
        let trouble = await reports.next()
        guard case .trouble(let message)? = trouble else { Issue.record("got \(String(describing: trouble))"); return }
        #expect(message.contains("The watched folder \(temp.path) is back but is not watched again"), "\(message)")
        #expect(message.contains("\(temp.sub("failed")): it is a symbolic link"))
    }

    /// Watches `temp`'s folder until a first file is claimed (so the watcher is
    /// set up), then deletes the folder the way a script does it safely:
    /// renamed away in one step, then removed. A recursive delete in place
    /// races the watcher, which makes its subfolders again as they go, and the
    /// delete then fails half-way. Returns the claimed files and the reports.
    static func watchedThenDeleted(_ temp: TempFolder) async throws
        -> (AsyncStream<ClaimedFile>.Iterator, AsyncStream<FolderReport>.Iterator) {
        let log = ReportLog()
        var files = try WatchedFolder(path: temp.path).claimedFiles(report: log.sink).makeAsyncIterator()
        try temp.write("first.pdf")
        #expect(await files.next()?.originalName == "first.pdf")
        let away = temp.staging + "/deleted-\(UUID().uuidString.prefix(6))"
        #expect(rename(temp.path, away) == 0)
        try FileManager.default.removeItem(atPath: away)
        return (files, log.stream.makeAsyncIterator())
    }
}
