import Foundation
import Testing
@testable import Triggers

/// The agent's wake-up for jobs other processes queue: real inotify on a
/// folder holding a database's files.
@Suite(.timeLimit(.minutes(1))) struct DatabaseChangesTests {
    @Test func writesToTheDatabaseAndItsWALAreReportedAndOtherFilesAreNot() async throws {
        let folder = try TempFolder()
        let changes = try DatabaseChanges(database: folder.sub("kioskprint.sqlite"))
        var writes = changes.writes.makeAsyncIterator()

        // Written first, so had they been reported they would come first.
        try folder.write("agent.lock")
        try folder.write("kioskprint.sqlite-shm")
        try folder.write("kioskprint.sqlite-wal")
        #expect(try await writes.next() == "kioskprint.sqlite-wal")
        try folder.write("other.sqlite-wal")
        try folder.write("kioskprint.sqlite")
        #expect(try await writes.next() == "kioskprint.sqlite")

        changes.stop()
        // Whatever was still queued, the stream then ends.
        while let name = try await writes.next() { #expect(["kioskprint.sqlite-wal", "kioskprint.sqlite"].contains(name)) }
    }

    @Test func aFolderThatCannotBeWatchedIsAnErrorNamingIt() throws {
        let missing = FileManager.default.temporaryDirectory.path + "/no-such-\(UUID().uuidString)"
        #expect { try DatabaseChanges(database: missing + "/kioskprint.sqlite") } throws: { "\($0)".contains(missing) }
    }
}
