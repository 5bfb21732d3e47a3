import Glibc
import Testing
@testable import Triggers

/// Issue 27, case 11: the scan at start (and after an overflow, and when a
/// folder comes back) claims only files no process still has open for
/// writing; such a file is claimed when its writer closes it.
@Suite("A file still being written", .timeLimit(.minutes(1)))
struct OpenWriterTests {
    @Test func aFileOpenForWritingAtStartIsLeftUntilItsWriterClosesItAndOneOpenForReadingIsTaken() async throws {
        let temp = try TempFolder()
        let writer = open(temp.sub("a-order.pdf"), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        try #require(writer >= 0)
        var writerOpen = true
        defer { if writerOpen { close(writer) } }
        #expect(write(writer, "half", 4) == 4)
        // A reader does not make a file incomplete.
        try temp.write("b-order.pdf")
        let reader = open(temp.sub("b-order.pdf"), O_RDONLY | O_CLOEXEC)
        try #require(reader >= 0)
        defer { close(reader) }

        var files = try WatchedFolder(path: temp.path).claimedFiles().makeAsyncIterator()
        // The scan goes in name order: a-order.pdf was passed over, not taken.
        #expect(await files.next()?.originalName == "b-order.pdf")
        #expect(temp.exists(temp.sub("a-order.pdf")), "the file being written is left where it is")

        #expect(write(writer, " and the rest", 13) == 13)
        close(writer)
        writerOpen = false
        let late = try #require(await files.next())
        #expect(late.originalName == "a-order.pdf")
        #expect(temp.text(late.path) == "half and the rest")
        #expect(temp.names(temp.sub("failed")).isEmpty)
    }
}
