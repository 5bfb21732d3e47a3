import Foundation

/// Ghostscript run as a child process of its own, started with posix_spawn
/// and reaped with waitpid. Foundation's `Process` is not used: two of them
/// waited on at once from Swift's cooperative threads left their children
/// unreaped and both callers waiting for ever (seen in this project's tests).
///
/// `-dSAFER` always. Its output goes to a file, watched while it runs: past
/// `outputLimit` bytes, or `timeLimit`, it is killed.
enum Ghostscript {
    static let program = "/usr/bin/gs"
    /// A receipt draws in a fraction of a second; a PDF that takes this long is not a receipt.
    static let timeLimit: Duration = .seconds(60)

    struct Failure: Error {
        /// What went wrong, in words for the job's message.
        var reason: String
    }

    /// Runs gs with `arguments`, writing to `output` (given to gs as
    /// `-sOutputFile`) and its messages to a file beside it; returns the
    /// last of what it said.
    static func run(_ arguments: [String], output: String, outputLimit: Int) throws(Failure) -> String {
        guard FileManager.default.isExecutableFile(atPath: program) else {
            throw Failure(reason: "Ghostscript (\(program)) is not installed: `apt install ghostscript`, then retry the job")
        }
        let said = output + ".messages"
        defer { unlink(said) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, said, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
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
        let words = [program, "-q", "-dSAFER", "-dBATCH", "-dNOPAUSE", "-dNOPROMPT", "-sOutputFile=\(output)"] + arguments
        let argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
        let environment: [String] = ["PATH=/usr/bin:/bin", "LANG=C"]
        let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup($0) } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let started = posix_spawn(&pid, program, &actions, &attributes, argv, envp)
        guard started == 0 else { throw Failure(reason: "Ghostscript could not be started: \(String(cString: strerror(started)))") }

        // Watched every 20 ms: the time it takes and the size of what it writes.
        let deadline = ContinuousClock.now + timeLimit
        var status: Int32 = 0
        var stopped: String?
        while waitpid(pid, &status, WNOHANG) == 0 {
            if stopped == nil {
                var info = stat()
                if stat(output, &info) == 0, Int(info.st_size) > outputLimit {
                    stopped = "it wrote more than \(outputLimit >> 20) MB"
                } else if ContinuousClock.now > deadline {
                    stopped = "it ran longer than \(timeLimit.components.seconds) s"
                }
                if stopped != nil { kill(pid, SIGKILL) }
            }
            usleep(20_000)
        }
        let message = ((try? String(contentsOfFile: said, encoding: .utf8)) ?? "").split(separator: "\n").suffix(3)
            .joined(separator: " ").trimmingCharacters(in: .whitespaces)
        if let stopped { throw Failure(reason: "Ghostscript was stopped: \(stopped)") }
        let signal = status & 0x7F
        guard signal == 0, (status >> 8) & 0xFF == 0 else {
            let how = signal != 0 ? "was stopped by signal \(signal)" : "failed (exit \((status >> 8) & 0xFF))"
            throw Failure(reason: "Ghostscript \(how)\(message.isEmpty ? "" : ": \(message)")")
        }
        return message
    }
}
