public import Foundation
import Simulator
import Synchronization

/// A command-line tool run to its end, timed from just before it was spawned
/// to the moment the kernel reported its exit: what a shell script pays.
public struct TimedRun: Sendable {
    /// The exit code, or 128 + the signal that ended it.
    public var status: Int32
    public var elapsed: Duration
    /// Standard output and error together.
    public var output: String

    public var succeeded: Bool { status == 0 }

    /// Runs `executable` to its end. A run still going after `limit` is killed
    /// and comes back with status 137: a hang is a failure, not a slow run.
    ///
    /// Not `Subprocess.run`: it notices an exit by polling every 5 ms, too
    /// coarse for a 40 ms ipptool run. Here a thread blocks in waitid and
    /// wakes at the exit itself.
    public static func run(_ executable: String, _ arguments: [String], environment: [String: String],
                    folder: URL, limit: Duration = .seconds(20)) async throws -> TimedRun {
        try await offloaded {
            let run = try MeasuredProcess.run(executable, arguments, environment: environment, folder: folder, limit: limit)
            return TimedRun(status: run.status, elapsed: run.elapsed, output: run.output + run.errors)
        }
    }
}

/// Kills a child that outlives its limit, unless disarmed first.
public final class Watchdog: Sendable {
    private let armed = Mutex(true)

    /// Arms it: `pid` gets SIGKILL once `limit` has passed.
    public init(pid: pid_t, limit: Duration) {
        let seconds = Double(limit.components.seconds) + Double(limit.components.attoseconds) / 1e18
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { [self] in
            // Under the lock, so a disarm that has begun is never overtaken.
            armed.withLock { if $0 { kill(pid, SIGKILL) } }
        }
    }

    /// The child ended in time: it is not killed.
    public func disarm() { armed.withLock { $0 = false } }
}
