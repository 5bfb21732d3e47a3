import BenchSupport
import Foundation

/// A process's CPU time in nanoseconds, per thread, from
/// /proc/PID/task/TID/schedstat, and its minor page faults from
/// /proc/PID/stat: fine enough for one job, where /proc/PID/stat's 10 ms
/// ticks are not.
struct ThreadTimes: Sendable {
    /// Nanoseconds on CPU by thread id.
    var byThread: [Int32: Int64]
    /// Minor faults of the whole process (field 10 of /proc/PID/stat, its ended threads' too).
    var minorFaults: Int

    static func read(pid: pid_t) throws -> ThreadTimes {
        guard let tids = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task"),
              let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else {
            throw BenchError("cannot read /proc/\(pid): the agent is gone")
        }
        var byThread: [Int32: Int64] = [:]
        for tid in tids.compactMap({ Int32($0) }) {
            let text = (try? String(contentsOfFile: "/proc/\(pid)/task/\(tid)/schedstat", encoding: .utf8)) ?? ""
            if let first = text.split(separator: " ").first, let nanoseconds = Int64(first) { byThread[tid] = nanoseconds }
        }
        // After ")": field 3 (state) is fields[0], so minflt (field 10) is fields[7].
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        return ThreadTimes(byThread: byThread, minorFaults: fields.count > 7 ? Int(fields[7]) ?? 0 : 0)
    }

    /// What was spent from `earlier` to this reading: each thread's growth
    /// (a thread that ended in between loses its last slice: a lower bound).
    func since(_ earlier: ThreadTimes) -> (cpu: Duration, minorFaults: Int) {
        let nanoseconds = byThread.reduce(Int64(0)) { $0 + $1.value - (earlier.byThread[$1.key] ?? 0) }
        return (.nanoseconds(nanoseconds), minorFaults - earlier.minorFaults)
    }
}
