@testable import Memory
import Simulator
import Testing

/// glibc's malloc arenas, counted from a memory map. That the agent keeps to
/// two is checked on the agent process itself (`AgentRunTests`).
@Suite struct MemoryTuningTests {
    /// A map with two arena heaps (one grown to 1 MiB, one to 132 KiB), a
    /// thread stack of 8 MiB with its guard page, and a 64 MiB anonymous
    /// mapping that does not start on a 64 MiB boundary.
    static let smaps = """
        7f0000000000-7f0000100000 rw-p 00000000 00:00 0 
        Rss:                1024 kB
        7f0000100000-7f0004000000 ---p 00000000 00:00 0 
        Rss:                   0 kB
        7f0004000000-7f0004021000 rw-p 00000000 00:00 0 
        Rss:                 132 kB
        7f0004021000-7f0008000000 ---p 00000000 00:00 0 
        Rss:                   0 kB
        7f0008000000-7f0008001000 ---p 00000000 00:00 0 
        7f0008001000-7f0008801000 rw-p 00000000 00:00 0 
        Rss:                  16 kB
        7f0010001000-7f0014001000 rw-p 00000000 00:00 0 
        Rss:                  16 kB
        7f0020000000-7f0020100000 r-xp 00000000 08:01 42   /usr/lib/x86_64-linux-gnu/libc.so.6
        Rss:                 900 kB
        """

    @Test func countsTheHeapsOfArenasOtherThanTheMainOne() {
        #expect(MallocHeaps.count(in: MemoryMap.parse(Self.smaps)) == 2)
    }

    @Test(.disabled(if: Sanitizers.addressSanitizerLinked, "AddressSanitizer's allocator replaces glibc's arenas"))
    func findsTheArenasThisTestProcessThreadsMade() throws {
        // No cap here: the test runner's threads each made an arena before
        // this test ran (a cap set now would not take them back, which is why
        // the agent sets it first thing in main).
        let heaps = try #require(MallocHeaps.count(process: "self"))
        #expect(heaps >= 1, "the test runner's threads allocate in arenas of their own")
    }
}
