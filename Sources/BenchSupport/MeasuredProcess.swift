public import Foundation
import Simulator

/// A child process run to its end, with its wall time and the rusage wait4
/// gave for its pid.
///
/// wait4's ru_maxrss is NOT the child's own peak when this process spawned
/// it: posix_spawn shares this process's memory until the exec, and Linux
/// carries the old memory's high-water mark into the exec'd program's
/// ru_maxrss. So the figure is at least the bench's own peak (measured: /bin/true
/// "peaks" at the bench's size). Peaks come from `PeakMemory` instead, whose
/// small spawner makes that floor about 1 MB.
public struct MeasuredProcess: Sendable {
    /// The exit code, or 128 + the signal that ended it.
    public var status: Int32
    /// From just before posix_spawn to the kernel's report of the exit.
    public var elapsed: Duration
    /// wait4's ru_maxrss in KiB: an upper bound only (see above).
    public var spawnerBoundKiB: Int
    /// What the child wrote to standard output.
    public var output: String
    /// What the child wrote to standard error.
    public var errors: String

    public var succeeded: Bool { status == 0 }

    /// Runs `executable` to its end; one still going after `limit` is killed
    /// (status 137). Blocks the calling thread: the render bench runs its
    /// children one at a time, so that none disturbs another's timing.
    public static func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:], folder: URL,
                    limit: Duration = .seconds(120)) throws -> MeasuredProcess {
        let tag = UUID().uuidString.prefix(8)
        let out = folder.appendingPathComponent("child-\(tag).out"), err = folder.appendingPathComponent("child-\(tag).err")
        defer {
            try? FileManager.default.removeItem(at: out)
            try? FileManager.default.removeItem(at: err)
        }
        let started = ContinuousClock.now
        let child = try Spawned.start(executable, arguments, environment: environment, output: out.path, errors: err.path)
        let watchdog = Watchdog(pid: child.pid, limit: limit)
        // WNOWAIT: the exit is timed here, but the child stays a zombie (its
        // pid not reusable) until the watchdog is disarmed; wait4 then reaps
        // it and hands over its rusage.
        var info = siginfo_t()
        while waitid(P_PID, id_t(child.pid), &info, WEXITED | WNOWAIT) < 0 && errno == EINTR {}
        let elapsed = ContinuousClock.now - started
        watchdog.disarm()
        var status: Int32 = 0
        var usage = rusage()
        while wait4(child.pid, &status, 0, &usage) < 0 && errno == EINTR {}
        let read = { (url: URL) in (try? String(contentsOf: url, encoding: .utf8)) ?? "" }
        return MeasuredProcess(status: exitCode(of: status), elapsed: elapsed, spawnerBoundKiB: Int(usage.ru_maxrss),
                               output: read(out), errors: read(err))
    }

    /// `run`, but a failed run is an error, with what the child said.
    public static func mustSucceed(_ executable: String, _ arguments: [String], folder: URL) throws -> MeasuredProcess {
        let run = try run(executable, arguments, folder: folder)
        guard run.succeeded else {
            let said = (run.errors + run.output).trimmingCharacters(in: .whitespacesAndNewlines)
            throw BenchError("\((executable as NSString).lastPathComponent) \(arguments.joined(separator: " ")) "
                + "exited with \(run.status): \(said.suffix(400))")
        }
        return run
    }
}

/// Peak memory as the table shows it.
public enum Megabytes {
    /// KiB to MiB, one decimal: `23.4 MB`; `n/a` when not measured.
    public static func text(_ kib: Int?) -> String {
        guard let kib else { return "n/a" }
        return String(format: "%.1f MB", Double(kib) / 1024)
    }
}
