import Foundation
import Testing
@testable import Triggers

/// `done/`'s index with a limit larger than the names it keeps: the oldest
/// `window` names, listed again when they run out, so the index stays small
/// whatever `done-limit` says (up to 1,000,000) and `done/` still holds the
/// newest `limit` files.
@Suite struct DoneIndexTests {
    @Test func whenTheKeptNamesRunOutTheFolderIsListedAgain() throws {
        let temp = try TempFolder()
        try FileManager.default.createDirectory(atPath: temp.sub("done"), withIntermediateDirectories: false)
        let done = try Directory.open(temp.sub("done"))
        let index = DoneIndex(limit: 4, window: 1)
        func finish(_ name: String) throws {
            try temp.write(name, in: temp.sub("done"))
            done.touch(EntryName(name))
            index.finished(EntryName(name), in: done)
        }
        for (second, name) in ["old1", "old2", "old3", "old4", "old5"].enumerated() { try temp.writeFinishedLongAgo(name, second: second + 1) }

        try finish("a")   // the first finish lists: the four newest stay, the oldest of them kept in mind
        #expect(temp.names(temp.sub("done")) == ["a", "old3", "old4", "old5"])
        try temp.writeFinishedLongAgo("stray", second: 0)   // put there after the listing, and older than all
        try finish("b")   // removes the one name kept, without listing
        #expect(temp.names(temp.sub("done")) == ["a", "b", "old4", "old5", "stray"])
        try finish("c")   // no name left to remove: lists again, and finds the stray
        #expect(temp.names(temp.sub("done")) == ["a", "b", "c", "old5"])
    }
}
