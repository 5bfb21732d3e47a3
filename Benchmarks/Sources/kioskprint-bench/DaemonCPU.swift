import BenchSupport
import Foundation
import Simulator

/// A daemon's CPU time from /proc/PID/stat, its reaped children's included:
/// how cupsd's cost per job is counted. cupsd runs each job's filters and
/// its backend as children and reaps them when they exit, at which point the
/// kernel adds their time (and their own reaped children's) to cupsd's
/// cutime and cstime; so utime + stime + cutime + cstime, read before and
/// after a set of jobs that have all ended, is what cupsd and everything it
/// ran for them spent. Kernel ticks (10 ms at USER_HZ 100): read over a
/// dozen jobs or more.
enum DaemonCPU {
    /// utime + stime, and cutime + cstime when `withChildren`
    /// (fields 14-17 of /proc/PID/stat); nil when the process is gone.
    static func used(pid: pid_t, withChildren: Bool) -> Duration? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // fields[0] is field 3 (state): utime, stime, cutime, cstime are fields[11...14].
        guard fields.count > 14 else { return nil }
        let numbers = fields[11...14].compactMap { Int64($0) }
        guard numbers.count == 4 else { return nil }
        let ticks = withChildren ? numbers.reduce(0, +) : numbers[0] + numbers[1]
        return .milliseconds(ticks * 1000 / Int64(sysconf(Int32(_SC_CLK_TCK))))
    }

    /// The cupsd that a PrivateCups' guard shell runs: its child named cupsd
    /// (the guard's other children are its `sleep 0.2`s).
    static func cupsd(of cups: PrivateCups) -> pid_t? {
        let guardPID = cups.process.pid
        let text = (try? String(contentsOfFile: "/proc/\(guardPID)/task/\(guardPID)/children", encoding: .utf8)) ?? ""
        return text.split(separator: " ").compactMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
            .first { pid in
                let comm = (try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8)) ?? ""
                return comm.trimmingCharacters(in: .whitespacesAndNewlines) == "cupsd"
            }
    }

    /// `112 ms`, one decimal below 10.
    static func text(_ duration: Duration?) -> String {
        duration.map { Millis.text($0) + " ms" } ?? "n/a"
    }
}
