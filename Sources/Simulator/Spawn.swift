public import Foundation
import Synchronization

/// A process started with posix_spawn and reaped with waitpid, by pid.
///
/// Not Foundation's `Process`, for two reasons measured here: avahi-daemon
/// closes every descriptor it inherits, including the one Foundation watches
/// for child exits, after which no `Process` in this program is ever seen to
/// exit; and a child spawned from a Swift concurrency thread inherits that
/// thread's blocked signals, so dbus-daemon would ignore SIGTERM. Children
/// here start with an empty signal mask and default handlers.
public struct Spawned: Sendable {
    public let pid: pid_t
    private let exit = ExitBox()

    /// Starts `executable` (a path, or a name looked up on PATH) with the
    /// current environment plus `environment`. Standard input is /dev/null;
    /// standard output and error go to the given files (created or truncated).
    public static func start(_ executable: String, _ arguments: [String], environment: [String: String] = [:],
                             output: String, errors: String? = nil) throws -> Spawned {
        let path = try ProgramPath.resolve(executable)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        if let errors {
            posix_spawn_file_actions_addopen(&actions, 2, errors, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        } else {
            posix_spawn_file_actions_adddup2(&actions, 1, 2)
        }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGTERM, SIGINT, SIGHUP, SIGPIPE, SIGCHLD, SIGQUIT] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let merged = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = merged.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
        guard result == 0 else {
            throw LabError.didNotStart(program: executable, log: String(cString: strerror(result)))
        }
        return Spawned(pid: pid)
    }

    private init(pid: pid_t) { self.pid = pid }

    /// The exit status once the process has ended (reaping it), nil while it runs.
    public var exitStatus: Int32? {
        exit.status.withLock { known in
            if known != nil { return known }
            var status: Int32 = 0
            if waitpid(pid, &status, WNOHANG) == pid { known = status }
            return known
        }
    }

    public var isRunning: Bool { exitStatus == nil }

    /// Waits for the process to end; nil if it still runs at the deadline.
    /// Checks every 5 ms: the wait ends on the exit itself.
    public func wait(within limit: Duration) -> Int32? {
        let deadline = ContinuousClock.now + limit
        while true {
            if let status = exitStatus { return status }
            if ContinuousClock.now >= deadline { return nil }
            usleep(5_000)
        }
    }

    /// `wait(within:)` for async code: sleeps between checks (every 20 ms)
    /// instead of holding one of Swift's few cooperative threads. Nil if the
    /// process still runs at the deadline, or if the waiting task is cancelled.
    public func exited(within limit: Duration) async -> Int32? {
        _ = await pollUntil(within: limit, every: .milliseconds(20)) { isRunning == false || Task.isCancelled }
        return exitStatus
    }

    /// SIGTERM (after SIGCONT, in case it was suspended), then SIGKILL if it
    /// has not gone within `grace`. Always reaped.
    public func stop(grace: Duration = .seconds(3)) {
        guard isRunning else { return }
        kill(pid, SIGCONT)
        kill(pid, SIGTERM)
        if wait(within: grace) == nil {
            kill(pid, SIGKILL)
            _ = wait(within: .seconds(5))
        }
    }

    public func signal(_ number: Int32) { kill(pid, number) }
}

/// The exit status, once collected: waitpid reaps a child only once.
private final class ExitBox: Sendable {
    let status = Mutex<Int32?>(nil)
}

/// Decodes a waitpid status: the exit code, or 128 + the signal that ended it (as shells do).
public func exitCode(of status: Int32) -> Int32 {
    let signal = status & 0x7f
    return signal == 0 ? (status >> 8) & 0xff : 128 + signal
}

/// Runs a command to completion and collects what it printed.
public enum Subprocess {
    public struct Output: Sendable {
        /// The exit code (128 + signal if a signal ended it).
        public var status: Int32
        public var output: String
        public var errors: String
        public var elapsed: Duration
    }

    /// Runs `executable` to its end. Throws if it is still running after
    /// `limit` (it is then killed): a hang is a failure, not a slow run.
    public static func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:],
                           limit: Duration = .seconds(60)) throws -> Output {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("kioskprint-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("out").path, err = folder.appendingPathComponent("err").path
        let started = ContinuousClock.now
        let child = try Spawned.start(executable, arguments, environment: environment, output: out, errors: err)
        guard let status = child.wait(within: limit) else {
            child.stop(grace: .milliseconds(100))
            throw LabError.timedOut("\(executable) \(arguments.joined(separator: " ")) (still running after \(limit))")
        }
        let read = { (path: String) in (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }
        return Output(status: exitCode(of: status), output: read(out), errors: read(err),
                      elapsed: ContinuousClock.now - started)
    }
}

/// Finds programs on PATH (and the sbin folders, where daemons live).
public enum ProgramPath {
    /// The program's path; throws `LabError.missingProgram` when it is not installed.
    public static func find(_ executable: String) throws -> String { try resolve(executable) }

    static func resolve(_ executable: String) throws -> String {
        if executable.contains("/") { return executable }
        let searchPath = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        let directories = searchPath.split(separator: ":").map(String.init) + ["/usr/sbin", "/sbin"]
        for directory in directories {
            let candidate = "\(directory)/\(executable)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        throw LabError.missingProgram(executable)
    }
}
