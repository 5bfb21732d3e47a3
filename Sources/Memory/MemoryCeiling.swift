import Glibc
import Synchronization

/// Gives freed memory back at once after a job that left the heap far above
/// its usual size, instead of when the queue next stays idle.
///
/// A long document (a 20,000-item receipt: 26 MB of encoded raster and its
/// drawing) frees a hundred MB that glibc keeps. The idle release returns it
/// once the role has been dry for 2 s, but a queue that never stops (the
/// hostile bench feeds a file every few milliseconds) kept it, and the next
/// large job stacked on top of it: the agent peaked at 149.8 and 154.1 MB,
/// against 150. One read of /proc/self/statm per job decides; `malloc_trim`
/// runs only above `ceiling`, and again only once the memory has grown by
/// `step` since, so a process whose live data is above the ceiling does not
/// pay for a trim after every job.
///
/// ```swift
/// let ceiling = MemoryCeiling()
/// ceiling.check()   // after each job
/// ```
public final class MemoryCeiling: Sendable {
    /// Private resident memory (bytes) above which a job's end trims the heap.
    public let ceiling: Int
    /// How much more it must grow after a trim before the next.
    public let step: Int
    private let read: @Sendable () -> Int?
    private let trim: @Sendable () -> Void
    /// What a trim left, or nil before the first.
    private let trimmedAt = Mutex<Int?>(nil)

    /// - Parameters: `read` gives the private resident bytes and `trim` gives
    ///   freed memory back; the defaults are /proc/self/statm and `malloc_trim`.
    public init(ceiling: Int = 48 << 20, step: Int = 16 << 20,
                read: @escaping @Sendable () -> Int? = MemoryCeiling.privateResidentBytes,
                trim: @escaping @Sendable () -> Void = MemoryTuning.releaseFreedMemory) {
        self.ceiling = ceiling
        self.step = step
        self.read = read
        self.trim = trim
    }

    /// Trims the heap if the process is above the ceiling and has grown by
    /// `step` since the last trim. Returns whether it trimmed.
    @discardableResult
    public func check() -> Bool {
        guard let now = read(), now > ceiling else { return false }
        let due = trimmedAt.withLock { last in last.map { now >= $0 + step } ?? true }
        guard due else { return false }
        trim()
        let after = read() ?? now
        trimmedAt.withLock { $0 = after }
        return true
    }

    /// Resident pages minus those shared with files (/proc/self/statm's
    /// second and third fields): the heap, stacks and written copies.
    public static func privateResidentBytes() -> Int? {
        let fd = open("/proc/self/statm", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 128)
        let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
        guard count > 0 else { return nil }
        let fields = buffer[0..<count].split(separator: UInt8(ascii: " ")).prefix(3)
            .compactMap { Int(String(decoding: $0, as: UTF8.self).filter(\.isNumber)) }
        guard fields.count == 3 else { return nil }
        return (fields[1] - fields[2]) * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}
