internal import CMemory

/// Settings for a process that runs all day.
public enum MemoryTuning {
    /// Caps glibc's malloc arenas. glibc gives each thread that allocates an
    /// arena of its own, up to 8 per core, and keeps what was freed there:
    /// over 10,000 jobs the agent grew from 85 to 103 MB with 13 MB in use.
    /// With two arenas it stays flat (measured: +5% over the run, not +21%).
    ///
    /// Call it first thing in `main`, before any other thread allocates: an
    /// arena made before it is kept. The agent's first call, inside the `run`
    /// command, came after Swift's cooperative threads had made three.
    ///
    /// glibc's mmap threshold is left to glibc: fixed at 32 KB, so that a
    /// receipt's drawing went back to the system when freed, it kept 4 MB
    /// less heap after a burst but cost 2.5 to 3 ms of CPU per receipt
    /// (8.1 against 10.5 to 11.3 ms): every such block was a fresh mapping,
    /// its pages faulted in and zeroed again for each receipt.
    /// - Returns: whether glibc took the setting.
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
