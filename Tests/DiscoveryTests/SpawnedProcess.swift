import Foundation
import Glibc

/// A helper process the tests start themselves with posix_spawn, and reap
/// themselves with waitpid.
///
/// Not Foundation's Process, for two reasons measured here: once the lab's
/// avahi-daemon is running (it closes every inherited descriptor, including
/// the socket Foundation watches), Foundation's monitor thread sits in a
/// blocking waitpid for that daemon, so no later Process is ever seen to exit;
/// and a child spawned from a Swift concurrency thread inherits its blocked
/// signal mask, so dbus-daemon would ignore SIGTERM. Here the child starts
/// with an empty mask and default handlers.
struct SpawnedProcess {
    let pid: pid_t

    struct Failed: Error, CustomStringConvertible {
        let description: String
    }

    /// Starts `path` with `arguments` and `environment`; output (stdout and
    /// stderr) goes to `outputPath`, input comes from /dev/null.
    init(_ path: String, _ arguments: [String], environment: [String: String], outputPath: String) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGTERM, SIGINT, SIGHUP, SIGPIPE, SIGCHLD] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
        guard result == 0 else {
            throw Failed(description: "cannot start \(path): \(String(cString: strerror(result)))")
        }
        self.pid = pid
    }

    /// Waits for the process to exit and reaps it; nil if it is still running
    /// at the deadline. Polls waitpid (WNOHANG) rather than blocking a thread.
    func exitStatus(within limit: Duration) async -> Int32? {
        let deadline = ContinuousClock.now + limit
        while true {
            var status: Int32 = 0
            if waitpid(pid, &status, WNOHANG) == pid { return status }
            if ContinuousClock.now >= deadline { return nil }
            try? await Task.sleep(for: .milliseconds(20))  // polling an exit against a deadline
        }
    }

    /// SIGTERM, then SIGKILL if it is still there after `grace`; always reaped.
    func stop(grace: Duration = .seconds(3)) async {
        kill(pid, SIGTERM)
        if await exitStatus(within: grace) == nil {
            kill(pid, SIGKILL)
            _ = await exitStatus(within: .seconds(5))
        }
    }
}
