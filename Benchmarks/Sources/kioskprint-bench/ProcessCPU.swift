import Foundation

/// CPU time spent by this process, and by one of its threads, for the raw
/// bench's "agent CPU per receipt": the process's own figure with the
/// in-process printer simulator's thread taken out.
enum ProcessCPU {
    /// User plus system time of every thread of this process so far
    /// (getrusage RUSAGE_SELF; Linux keeps it to the nanosecond and reports microseconds).
    static func used() -> Duration {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return .seconds(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
            + .microseconds(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec)
    }
}

/// One thread of this process whose CPU time can be read at any moment from
/// another thread.
struct ThreadClock: Sendable {
    /// The kernel's thread id (a directory of /proc/self/task).
    let threadID: Int
    /// Its name as the kernel keeps it (at most 15 bytes; Foundation's
    /// `Thread.name` does not reach it on Linux, so it is usually the process's).
    let name: String

    /// The thread ids of this process now.
    static func threadIDs() -> Set<Int> {
        Set(((try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []).compactMap(Int.init))
    }

    /// The thread `start` created: the one thread id that was not there
    /// before it ran. Nil when `start` made no thread or several (another
    /// part of the process started one meanwhile), as then none can be told apart.
    static func created<T>(by start: () throws -> T) rethrows -> (T, ThreadClock?) {
        let before = threadIDs()
        let made = try start()
        let new = threadIDs().subtracting(before)
        guard new.count == 1, let id = new.first else { return (made, nil) }
        let comm = (try? String(contentsOfFile: "/proc/self/task/\(id)/comm", encoding: .utf8)) ?? ""
        return (made, ThreadClock(threadID: id, name: comm.trimmingCharacters(in: .newlines)))
    }

    /// Its time on a CPU so far: the first figure of /proc/self/task/TID/schedstat,
    /// in nanoseconds (the scheduler's own count, not sampled at ticks as
    /// /proc's utime and stime are). Nil once the thread has ended.
    func used() -> Duration? {
        guard let text = try? String(contentsOfFile: "/proc/self/task/\(threadID)/schedstat", encoding: .utf8),
              let first = text.split(separator: " ").first, let nanoseconds = Int64(first) else { return nil }
        return .nanoseconds(nanoseconds)
    }
}
