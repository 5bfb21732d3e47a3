public import Foundation
import Synchronization

/// A helper program the lab started (dbus-daemon, avahi-daemon, ippeveprinter,
/// avahi-publish). It is stopped by its own process id, never by name, so a
/// lab never touches a process it did not start.
public struct ChildProcess: Sendable {
    public let process: Spawned
    public let name: String
    /// Where its standard output and error go.
    public let logFile: URL

    public var pid: Int32 { process.pid }

    /// Starts `executable` with `arguments`, output to `logFile`. The process is
    /// registered so that it is stopped when the test or demo process exits.
    static func launch(_ executable: String, _ arguments: [String], environment: [String: String] = [:],
                       logFile: URL) throws -> ChildProcess {
        let process = try Spawned.start(executable, arguments, environment: environment, output: logFile.path)
        LiveChildren.register(process.pid)
        return ChildProcess(process: process, name: executable, logFile: logFile)
    }

    public var isRunning: Bool { process.isRunning }

    /// SIGTERM, then SIGKILL if it has not gone within `grace`; reaped either way.
    public func stop(grace: Duration = .seconds(3)) {
        process.stop(grace: grace)
        LiveChildren.unregister(pid)
    }

    /// SIGSTOP: the process keeps its sockets open but answers nothing, like a
    /// printer that hung. Returns once every thread of it is stopped: the
    /// signal is only queued when kill() returns, and a busy machine was seen
    /// letting a just-stopped printer answer one more request.
    public func suspend() {
        process.signal(SIGSTOP)
        try? waitUntil("\(name) to stop", within: .seconds(10)) { Self.allThreadsStopped(pid: pid) }
    }

    /// True when every thread of `pid` is in the stopped state ('T' in /proc/PID/task/TID/stat).
    static func allThreadsStopped(pid: Int32) -> Bool {
        let tasks = "/proc/\(pid)/task"
        guard let threads = try? FileManager.default.contentsOfDirectory(atPath: tasks), !threads.isEmpty else { return false }
        return threads.allSatisfy { thread in
            guard let stat = try? String(contentsOfFile: "\(tasks)/\(thread)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return false }
            // The state is the first field after the command's closing parenthesis.
            return stat[stat.index(after: close)...].split(separator: " ").first == "T"
        }
    }
    /// SIGCONT.
    public func resume() { process.signal(SIGCONT) }

    /// The last lines of the log, for error messages.
    public func logTail(lines: Int = 8) -> String {
        let text = (try? String(contentsOf: logFile, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").suffix(lines).joined(separator: "\n")
    }
}

/// Every child still running, so that an exiting process takes its lab with it.
enum LiveChildren {
    private static let pids = Mutex<[Int32]>([])
    private static let folders = Mutex<[String]>([])
    private static let hook: Void = {
        atexit { LiveChildren.stopAll() }
        installSignalHandlers()
    }()

    /// A signal that ends the process (Ctrl-C, a CI timeout, systemd) skips
    /// atexit; without this the lab's daemons would outlive it. The handler
    /// runs on a dispatch queue, not in signal context, so it may take locks.
    // Written once, inside the one-time `hook`; kept only so the sources live on.
    nonisolated(unsafe) private static var signalSources: [any DispatchSourceSignal] = []
    private static func installSignalHandlers() {
        for number in [SIGINT, SIGTERM, SIGHUP] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                stopAll()
                signal(number, SIG_DFL)
                // To the process, not raise(): raise() targets this dispatch
                // thread, which blocks the signal, so the process lived on.
                kill(getpid(), number)
            }
            source.resume()
            signalSources.append(source)
        }
    }

    static func register(_ pid: Int32) {
        _ = hook
        pids.withLock { $0.append(pid) }
    }
    static func unregister(_ pid: Int32) {
        pids.withLock { $0.removeAll { $0 == pid } }
    }
    /// A folder to remove once every child is gone.
    static func register(folder: String) {
        _ = hook
        folders.withLock { $0.append(folder) }
    }

    /// Newest first: printers before Avahi before the bus, because ippeveprinter
    /// exits by itself when Avahi goes away and should not see that happen.
    static func stopAll() {
        let children = pids.withLock { $0 }
        for pid in children.reversed() {
            kill(pid, SIGCONT)
            kill(pid, SIGTERM)
        }
        // Reap what went quickly; a straggler gets SIGKILL rather than outliving us.
        let deadline = ContinuousClock.now + .seconds(2)
        var remaining = Set(children)
        while !remaining.isEmpty, ContinuousClock.now < deadline {
            for pid in remaining {
                var status: Int32 = 0
                let reaped = waitpid(pid, &status, WNOHANG)
                if reaped == pid || (reaped < 0 && errno == ECHILD) { remaining.remove(pid) }
            }
            if !remaining.isEmpty { usleep(5_000) }
        }
        for pid in remaining { kill(pid, SIGKILL) }
        for folder in folders.withLock({ $0 }) {
            try? FileManager.default.removeItem(atPath: folder)
        }
    }
}
