internal import CSystemd

/// Settings for a process that runs all day.
public enum MemoryTuning {
    /// Blocks at least this large get a mapping of their own, returned to
    /// the system when freed. glibc's default starts at 128 KB and rises to
    /// the largest block freed (up to 32 MB), so a receipt's drawing (a 67 KB
    /// document, the pieces' rows) landed in the arenas among small
    /// long-lived blocks that kept their pages resident after the burst:
    /// 16.5 MB of heap idle after 200 receipts, 12.8 MB with this (same run
    /// conditions; docs/BENCHMARKS.md).
    public static let ownMappingFrom: Int32 = 32 << 10

    /// Tunes glibc's malloc for the agent: two arenas and a fixed mmap
    /// threshold (`ownMappingFrom`). Call it first thing in `main`, before
    /// any other thread allocates: an arena made before it is kept, and the
    /// agent's first call, inside the `run` command, came after Swift's
    /// cooperative threads had made three.
    /// - Returns: whether glibc took both settings.
    @discardableResult
    public static func tuneAllocator() -> Bool {
        let arenas = limitMallocArenas()
        return kioskprint_set_mmap_threshold(ownMappingFrom) == 1 && arenas
    }

    /// Caps glibc's malloc arenas. glibc gives each thread that allocates an
    /// arena of its own, up to 8 per core, and keeps what was freed there:
    /// over 10,000 jobs the agent grew from 85 to 103 MB with 13 MB in use.
    /// With two arenas it stays flat (measured: +5% over the run, not +21%).
    @discardableResult
    public static func limitMallocArenas(to count: Int32 = 2) -> Bool {
        kioskprint_limit_malloc_arenas(count) == 1
    }

    /// Gives what glibc keeps of freed memory back to the system. A kiosk's
    /// next burst may be hours away; a long document's drawing otherwise
    /// stays resident until a restart. Costs a few milliseconds: the agent
    /// calls it when a role's queue runs dry after work, never while printing.
    public static func releaseFreedMemory() {
        _ = malloc_trim(0)
    }
}
