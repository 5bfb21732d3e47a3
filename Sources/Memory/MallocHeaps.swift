/// glibc's malloc heaps, as a process's memory map shows them: the check
/// that the agent's arena cap (`MemoryTuning.limitMallocArenas`) holds.
///
/// Each arena but the main one (which grows `[heap]`) lives in heaps of
/// 64 MiB reserved at a 64 MiB boundary: a read-write part that grows with
/// use, then the rest reserved with no access. glibc makes one per thread
/// that allocates, up to the cap, so their count says whether the cap held.
///
/// For tests: ServiceTests and CLITests both count the heaps, and `package`
/// reaches both targets; the agent itself never counts them.
package enum MallocHeaps {
    /// glibc's HEAP_MAX_SIZE on 64-bit Linux: twice the largest mmap threshold (32 MiB).
    static let heapSize: UInt = 64 << 20

    /// The heaps of arenas other than the main one in `mappings` (one per
    /// arena unless an arena outgrew 64 MiB).
    package static func count(in mappings: [MemoryMap.Mapping]) -> Int {
        var count = 0
        var index = mappings.startIndex
        while index < mappings.endIndex {
            let first = mappings[index]
            guard first.path.isEmpty, first.start % heapSize == 0, first.permissions.hasPrefix("rw") else {
                index += 1
                continue
            }
            // The heap's parts follow one another without a gap up to 64 MiB.
            var end = first.end
            var next = index + 1
            while end - first.start < heapSize, next < mappings.endIndex,
                  mappings[next].start == end, mappings[next].path.isEmpty {
                end = mappings[next].end
                next += 1
            }
            if end - first.start == heapSize { count += 1 }
            index = next
        }
        return count
    }

    /// The count for a running process ("self" or a pid); nil when its map cannot be read.
    package static func count(process: String) -> Int? {
        MemoryMap.read(process: process).map { count(in: $0) }
    }
}
