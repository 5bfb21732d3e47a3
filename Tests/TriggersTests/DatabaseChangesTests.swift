import Foundation
import Testing
@testable import Triggers

/// The agent's wake-up for work other processes give it: real inotify on the
/// folder holding a database, its WAL and its wake file.
@Suite(.timeLimit(.minutes(1))) struct DatabaseChangesTests {
    @Test func touchesOfTheWakeFileAreReportedAndWritesToTheDatabaseAreNot() async throws {
        let folder = try TempFolder()
        let wake = folder.sub("kioskprint.sqlite-wake")
        try folder.write("kioskprint.sqlite-wake")
        let changes = try DatabaseChanges(touchesOf: wake)
        var writes = changes.writes.makeAsyncIterator()

        // Written first, so had they been reported they would come first: the
        // agent's own commits write the WAL and, at a checkpoint, the database.
        try folder.write("kioskprint.sqlite-wal")
        try folder.write("kioskprint.sqlite")
        try folder.write("other.sqlite-wake")
        #expect(utimensat(AT_FDCWD, folder.sub("other.sqlite-wake"), nil, 0) == 0)
        #expect(utimensat(AT_FDCWD, wake, nil, 0) == 0)
        #expect(try await writes.next() == "kioskprint.sqlite-wake")

        changes.stop()
        // Whatever was still queued, the stream then ends.
        while let name = try await writes.next() { #expect(name == "kioskprint.sqlite-wake") }
    }

    @Test func aFolderThatCannotBeWatchedIsAnErrorNamingIt() throws {
        let missing = FileManager.default.temporaryDirectory.path + "/no-such-\(UUID().uuidString)"
        #expect { try DatabaseChanges(touchesOf: missing + "/kioskprint.sqlite-wake") } throws: { "\($0)".contains(missing) }
    }
}
