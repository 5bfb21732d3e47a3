public import Foundation
import Synchronization

/// A helper program the lab started (dbus-daemon, avahi-daemon, ippeveprinter,
/// avahi-publish). It is stopped by its own process id, never by name, so a
/// lab never touches a process it did not start.
public struct ChildProcess: Sendable {
    public let pid: Int32
    public let name: String
    /// Where its standard output and error go.
    public let logFile: URL

    /// Starts `executable` with `arguments`, output to `logFile`. The process is
    /// registered so that it is killed when the test or demo process exits.
    static func launch(_ executable: String, _ arguments: [String], environment: [String: String] = [:],
                       logFile: URL) throws -> ChildProcess {
        let path = try resolve(executable)
        _ = FileManager.default.createFile(atPath: logFile.path, contents: nil)
        let log = try FileHandle(forWritingTo: logFile)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardOutput = log
        process.standardError = log
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let child = ChildProcess(pid: process.processIdentifier, name: executable, logFile: logFile)
        LiveChildren.register(child.pid)
        return child
    }

    /// Finds a program on PATH, naming the Debian package that has it when it is missing.
    static func resolve(_ executable: String) throws -> String {
        if executable.hasPrefix("/") { return executable }
        let searchPath = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        let directories = searchPath.split(separator: ":").map(String.init) + ["/usr/sbin", "/sbin"]
        for directory in directories {
            let candidate = "\(directory)/\(executable)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        throw LabError.missingProgram(executable)
    }

    /// True while the process exists and is not a zombie.
    public var isRunning: Bool {
        guard kill(pid, 0) == 0 else { return false }
        let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
        // Field 3 after the parenthesised name is the state; Z is a zombie.
        guard let close = stat.lastIndex(of: ")") else { return false }
        return !stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).hasPrefix("Z")
    }

    /// SIGTERM, then SIGKILL if it has not gone within `grace`; then reaps it.
    public func stop(grace: Duration = .seconds(3)) {
        defer { LiveChildren.unregister(pid) }
        guard kill(pid, 0) == 0 else { return }
        kill(pid, SIGCONT)  // a suspended process cannot act on SIGTERM
        kill(pid, SIGTERM)
        if !waitForExit(within: grace) {
            kill(pid, SIGKILL)
            _ = waitForExit(within: .seconds(5))
        }
    }

    /// Sends SIGSTOP: the process keeps its sockets open but answers nothing,
    /// like a printer that hung.
    public func suspend() { kill(pid, SIGSTOP) }
    /// Sends SIGCONT.
    public func resume() { kill(pid, SIGCONT) }

    /// Waits for the process to exit, reaping it. Foundation's Process reaps its
    /// children on its own thread, so this watches /proc instead of calling waitpid.
    func waitForExit(within limit: Duration) -> Bool {
        let deadline = ContinuousClock.now + limit
        while isRunning {
            if ContinuousClock.now > deadline { return false }
            usleep(10_000)  // polling a condition with a deadline, not a fixed sleep
        }
        return true
    }

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
    private static let hook: Void = { atexit { LiveChildren.killAll() } }()

    /// A folder to remove once every child is gone.
    static func register(folder: String) {
        _ = hook
        folders.withLock { $0.append(folder) }
    }

    static func register(_ pid: Int32) {
        _ = hook
        pids.withLock { $0.append(pid) }
    }
    static func unregister(_ pid: Int32) {
        pids.withLock { $0.removeAll { $0 == pid } }
    }
    /// Printers first, daemons last: ippeveprinter exits by itself when Avahi
    /// goes away, and should not see that happen. Children were registered in
    /// start order, so reverse order stops them safely.
    static func killAll() {
        let children = pids.withLock { $0 }
        for pid in children.reversed() {
            kill(pid, SIGCONT)
            kill(pid, SIGTERM)
        }
        for folder in folders.withLock({ $0 }) {
            // A daemon still writing its log into the folder is harmless: the
            // files go with the folder once it has exited.
            try? FileManager.default.removeItem(atPath: folder)
        }
    }
}
