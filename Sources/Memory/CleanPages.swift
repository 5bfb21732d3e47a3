internal import CMemory
import Foundation
import Glibc

/// The process's clean, file-backed pages, handed back to the kernel when
/// the agent goes idle.
///
/// Most of an idle agent's resident memory is not its heap but code and
/// read-only data read from its binary and libraries: start-up alone touches
/// some 12 MB of the program's text (argument parsing, the configuration,
/// migrations, the HTTP server's set-up) that it never runs again, and a
/// burst of jobs adds the drawing stack's. Those pages are copies of files,
/// so `madvise(MADV_PAGEOUT)` can drop them from the process at no risk: a
/// page needed again is read back from the page cache (or the disk) on its
/// first touch. The pages that became the process's own (relocated data,
/// written globals) are skipped: nothing of the agent's own goes to swap.
///
/// `MADV_PAGEOUT` skips pages other processes map too: those of libc,
/// libstdc++, SQLite, gnutls, GLib..., 13.5 MB of the idle agent's 26 in the
/// cpu bench. They are then unmapped from this process alone with
/// `MADV_DONTNEED`, only in the loaded objects' read-only segments
/// (`code_pages.c` says why only there); the page cache keeps them.
public enum CleanPages {
    /// What one release did: the mappings advised and their resident size
    /// before, then the bytes of shared code unmapped.
    public struct Release: Sendable, Equatable {
        public var mappings: Int
        public var residentBytes: Int
        public var sharedCodeBytes = 0
    }

    /// Pages out the file pages of every file mapping, skipping the pages
    /// that became the process's own (copy-on-write: relocated data, written
    /// globals), which /proc/self/pagemap tells apart. Reads smaps and
    /// pagemap; a few milliseconds, for the idle moments only.
    @discardableResult
    public static func release() -> Release {
        guard let mappings = MemoryMap.read(process: "self") else { return Release(mappings: 0, residentBytes: 0) }
        let pagemap = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC)
        defer { if pagemap >= 0 { close(pagemap) } }
        var done = Release(mappings: 0, residentBytes: 0)
        for mapping in mappings where mapping.isFileBacked && mapping.residentKB > 0 {
            let runs = mapping.anonymousKB == 0 ? [mapping.start..<mapping.end]
                : fileRuns(of: mapping, pagemap: pagemap)
            var advised = false
            for run in runs {
                guard let start = UnsafeMutableRawPointer(bitPattern: run.lowerBound) else { continue }
                if madvise(start, Int(run.upperBound - run.lowerBound), MADV_PAGEOUT) == 0 { advised = true }
            }
            if advised {
                done.mappings += 1
                done.residentBytes += mapping.residentKB * 1024
            }
        }
        done.sharedCodeBytes = unmapSharedCode()
        return done
    }

    /// Unmaps the resident pages of the loaded objects' read-only segments
    /// from this process (`code_pages.c`); the bytes unmapped. Pages stay in
    /// the page cache, so they come back with minor faults.
    static func unmapSharedCode() -> Int {
        max(0, kioskprint_release_code_pages())
    }

    /// The address ranges of `mapping` that hold no anonymous page: pagemap
    /// has 8 bytes per page, bit 63 "present" and bit 61 "file page or
    /// shared". Without pagemap, none (the mapping is left alone).
    static func fileRuns(of mapping: MemoryMap.Mapping, pagemap: Int32) -> [Range<UInt>] {
        let page = UInt(sysconf(Int32(_SC_PAGESIZE)))
        let count = Int((mapping.end - mapping.start) / page)
        guard pagemap >= 0, count > 0 else { return [] }
        var entries = [UInt64](repeating: 0, count: count)
        let wanted = count * 8
        let read = entries.withUnsafeMutableBytes { pread(pagemap, $0.baseAddress, wanted, off_t(mapping.start / page * 8)) }
        guard read == wanted else { return [] }
        return ownPageRuns(entries, start: mapping.start, page: page)
    }

    /// Splits a mapping at its anonymous pages (present, not a file page).
    static func ownPageRuns(_ entries: [UInt64], start: UInt, page: UInt) -> [Range<UInt>] {
        var runs: [Range<UInt>] = []
        var runStart: UInt?
        for (index, entry) in entries.enumerated() {
            let address = start + UInt(index) * page
            // Present and not a file page, or in swap (bit 62).
            let anonymous = entry & (1 << 63) != 0 && entry & (1 << 61) == 0 || entry & (1 << 62) != 0
            if anonymous {
                if let begun = runStart { runs.append(begun..<address); runStart = nil }
            } else if runStart == nil {
                runStart = address
            }
        }
        if let begun = runStart { runs.append(begun..<(start + UInt(entries.count) * page)) }
        return runs
    }
}
