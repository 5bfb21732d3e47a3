import Foundation
@testable import Memory
import Testing

/// The idle release of clean file pages, on this test process itself.
@Suite(.serialized) struct CleanPagesTests {
    /// VmRSS's file-backed part, from /proc/self/status.
    static func residentFileKB() throws -> Int {
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("RssFile:") })
        return try #require(Int(line.split(separator: " ", omittingEmptySubsequences: true)[1]))
    }

    @Test func theProcesssCleanFilePagesLeaveItsResidentSet() throws {
        let before = try Self.residentFileKB()
        let release = CleanPages.release()
        let after = try Self.residentFileKB()
        // The test runner maps dozens of libraries: the whole smaps is read, not its first 4 KB.
        #expect(release.mappings > 10 && release.residentBytes > 0, "\(release)")
        // The test runner maps tens of MB of its own code; megabytes of it go, even while other
        // tests running beside this one touch some of it again.
        #expect(after <= before - 2048, "RssFile \(before) kB before, \(after) kB after; advised \(release)")
    }

    /// Resident KiB of the mappings other processes map too, in mappings no one can write
    /// (code and constants), from /proc/self/smaps.
    static func sharedReadOnlyKB() throws -> Int {
        let mappings = try #require(MemoryMap.read(process: "self"))
        return mappings.filter { $0.isFileBacked && !$0.permissions.contains("w") }
            .reduce(0) { $0 + $1.residentKB - $1.privateKB }
    }

    /// The copy-on-write pages of file mappings (relocated data, written globals): the
    /// process's own, which unmapping would lose.
    static func ownFilePagesKB() throws -> Int {
        try #require(MemoryMap.read(process: "self")).filter(\.isFileBacked).reduce(0) { $0 + $1.anonymousKB }
    }

    @Test func sharedCodeIsUnmappedAndOwnPagesStay() throws {
        let before = try Self.sharedReadOnlyKB()
        let ownBefore = try Self.ownFilePagesKB()
        // The unmapping alone: a whole release pages the test runner's own code out of the
        // page cache, and every test running beside this one would read it back from disk.
        let unmapped = CleanPages.unmapSharedCode()
        let after = try Self.sharedReadOnlyKB()
        // Tests beside this one may add some (lazy binding writes the GOT), never take any.
        #expect(try Self.ownFilePagesKB() >= ownBefore)
        // libc, libswiftCore, Foundation and the test runner's other libraries are mapped by
        // other processes too (this machine's swift toolchain, the shell), which MADV_PAGEOUT
        // skips; the unmapping drops them here. Tests beside this one fault some back at once.
        #expect(unmapped > 1 << 20, "\(unmapped) bytes unmapped")
        #expect(after <= before - 512, "shared read-only \(before) kB before, \(after) kB after; \(unmapped) bytes unmapped")
    }

    @Test func fileMappingsAreSplitAtTheirAnonymousPages() {
        let smaps = """
            55d214e3e000-55d21561a000 r--p 00000000 fe:00 5351062                    /usr/bin/agent
            Rss:                1544 kB
            Anonymous:             0 kB
            55d21561a000-55d2172be000 r-xp 007db000 fe:00 5351062                    /usr/bin/agent
            Rss:               11892 kB
            Anonymous:             0 kB
            55d2172be000-55d2173ef000 r--p 0247e000 fe:00 5351062                    /usr/bin/agent
            Rss:                1220 kB
            Anonymous:          1220 kB
            55d2173ef000-55d21997c000 rw-p 025ae000 fe:00 5351062                    /usr/bin/agent
            Rss:                4784 kB
            Private_Clean:      4296 kB
            Private_Dirty:       488 kB
            Anonymous:           488 kB
            7fe5567fc000-7fe556ffc000 rw-p 00000000 00:00 0
            Rss:                  40 kB
            Anonymous:            40 kB
            7fe557000000-7fe557001000 r--p 00000000 00:00 0                          [vvar]
            Rss:                   4 kB
            Anonymous:             0 kB
            """
        let mappings = MemoryMap.parse(smaps)
        #expect(mappings.count == 6)
        #expect(mappings.map(\.isFileBacked) == [true, true, true, true, false, false])
        #expect(mappings[3].anonymousKB == 488 && mappings[3].privateKB == 4784 && mappings[3].permissions == "rw-p")
        // pagemap: bit 63 present, bit 61 file page. Pages 0 and 3 are file pages, 1 absent, 2 and 4 anonymous.
        let file: UInt64 = 1 << 63 | 1 << 61, anonymous: UInt64 = 1 << 63
        let runs = CleanPages.ownPageRuns([file, 0, anonymous, file, anonymous], start: 0x1000, page: 0x1000)
        #expect(runs == [0x1000..<0x3000, 0x4000..<0x5000])
        // A page in swap (bit 62, not present) is the process's own as well.
        let swapped: UInt64 = 1 << 62
        #expect(CleanPages.ownPageRuns([file, swapped, file], start: 0x1000, page: 0x1000) == [0x1000..<0x2000, 0x3000..<0x4000])
        #expect(mappings[1].start == 0x55d2_1561_a000 && mappings[1].end == 0x55d2_172b_e000)
        #expect(mappings[1].residentKB == 11892 && mappings[1].path == "/usr/bin/agent")
    }
}
