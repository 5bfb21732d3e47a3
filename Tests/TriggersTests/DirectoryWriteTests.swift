import Testing
@testable import Triggers

/// What the agent writes into a folder (a `.error` reason, an attempt
/// count) appears whole, at once: never half written, never beside a
/// leftover of its own writing.
@Suite struct DirectoryWriteTests {
    @Test func aWrittenFileReplacesTheOldOneAndLeavesNothingElse() throws {
        let temp = try TempFolder()
        let folder = try Directory.open(temp.path)
        try folder.write("first reason, long enough to be seen shrinking\n", to: "job.pdf.error")
        try folder.write("second\n", to: "job.pdf.error")
        #expect(temp.text(temp.path + "/job.pdf.error") == "second\n")
        #expect(try folder.list().compactMap(\.text) == ["job.pdf.error"])
    }

    @Test func aWriteThatCannotBeRenamedLeavesNoTemporaryFile() throws {
        let temp = try TempFolder()
        let folder = try Directory.open(temp.path)
        // A folder in the way of the rename: renameat refuses to put a file over it.
        try folder.write("x", to: "blocker")
        _ = try folder.subfolder("taken")
        #expect(throws: TriggerError.self) { try folder.write("reason\n", to: "taken") }
        #expect(Set(try folder.list().compactMap(\.text)) == ["blocker", "taken"])
    }
}
