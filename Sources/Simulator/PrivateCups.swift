public import Foundation

/// A cupsd of the lab's own (the bench's comparison, the role printers' tests), run by hand as ../shared/PLATFORM.md
/// describes: `cupsd -f -c cupsd.conf -s cups-files.conf` with every path
/// (ServerRoot, RequestRoot, CacheDir, StateDir, TempDir, the logs, the
/// printcap) inside a private folder, listening on its own loopback port
/// only, no browsing, no web interface, no authentication. The machine's
/// CUPS (if any) and /etc/cups are not touched.
///
/// The folder is under /tmp, not in the lab's folder: cupsd runs its filters
/// as user lp, which must reach the spool and temporary folders, and the lab's
/// folder is root's alone (mode 0700).
public struct PrivateCups: Sendable {
    public let directory: URL
    public let port: Int
    public private(set) var process: Spawned

    /// `-h` for lp, lpadmin and lpstat.
    public var server: String { "localhost:\(port)" }
    /// A queue's URI, for Get-Job-Attributes to cupsd.
    public func queueURI(_ queue: String) -> String { "ipp://localhost:\(port)/printers/\(queue)" }

    public var errorLog: String {
        (try? String(contentsOf: directory.appendingPathComponent("log/error_log"), encoding: .utf8)) ?? ""
    }

    /// The programs the comparison needs, with the package each comes from on Debian 12.
    static let programs = [("cupsd", "cups"), ("lpadmin", "cups-client"), ("lp", "cups-client"),
                           ("gstoraster", "cups-filters")]

    /// Starts cupsd and returns once it accepts connections.
    /// `logLevel`: Debian's own cupsd.conf uses `warn`; `debug` logs what the IPP backend sends.
    public static func start(logLevel: String = "warn") async throws -> PrivateCups {
        for (program, package) in programs where locate(program) == nil {
            throw LabError.failed(program: program, reason: "it is not installed (Debian package \(package); scripts/install-deps.sh installs it)")
        }
        let template = "/tmp/kioskprint-cups-XXXXXX"
        var buffer = Array(template.utf8CString)
        guard let made = mkdtemp(&buffer) else {
            throw LabError.failed(program: "cupsd", reason: "no folder could be made for it: \(String(cString: strerror(errno)))")
        }
        let directory = URL(fileURLWithPath: String(cString: made))
        chmod(directory.path, 0o755)
        for folder in ["spool", "cache", "state", "tmp", "log"] {
            try FileManager.default.createDirectory(at: directory.appendingPathComponent(folder),
                                                    withIntermediateDirectories: true)
        }
        chmod(directory.appendingPathComponent("tmp").path, 0o1777)
        try filesConfiguration(directory).write(to: directory.appendingPathComponent("cups-files.conf"),
                                                atomically: true, encoding: .utf8)
        try guardScript.write(to: directory.appendingPathComponent("guard.sh"), atomically: true, encoding: .utf8)
        let port = try Loopback.freePort()
        do {
            let process = try await launch(directory: directory, port: port, logLevel: logLevel)
            return PrivateCups(directory: directory, port: port, process: process)
        } catch {
            try? FileManager.default.removeItem(at: directory)
            throw error
        }
    }

    /// Stops cupsd and starts it again with another log level; queues and their PPDs stay.
    public mutating func restart(logLevel: String) async throws {
        process.stop()
        process = try await Self.launch(directory: directory, port: port, logLevel: logLevel)
    }

    /// Stops cupsd (by the id of the guard that runs it) and removes its folder.
    public func stop() {
        process.stop(grace: .seconds(5))
        try? FileManager.default.removeItem(at: directory)
    }

    private static func launch(directory: URL, port: Int, logLevel: String) async throws -> Spawned {
        try mainConfiguration(port: port, logLevel: logLevel)
            .write(to: directory.appendingPathComponent("cupsd.conf"), atomically: true, encoding: .utf8)
        let output = directory.appendingPathComponent("cupsd.out").path
        let process = try Spawned.start("/bin/sh", [
            directory.appendingPathComponent("guard.sh").path, String(getpid()), locate("cupsd")!, "-f",
            "-c", directory.appendingPathComponent("cupsd.conf").path,
            "-s", directory.appendingPathComponent("cups-files.conf").path,
        ], output: output)
        let listening = await pollUntil(within: .seconds(15)) { !process.isRunning || Loopback.accepts(port: port) }
        guard listening, process.isRunning else {
            process.stop()
            let said = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
            let log = (try? String(contentsOf: directory.appendingPathComponent("log/error_log"), encoding: .utf8)) ?? ""
            throw LabError.didNotStart(program: "cupsd", log: (said + log).split(separator: "\n").suffix(6).joined(separator: " / "))
        }
        return process
    }

    /// Runs cupsd (its arguments after the lab process's pid) and stops it
    /// when told to (SIGTERM) or when that process is gone, so that a bench or
    /// test killed midway leaves no cupsd behind.
    static let guardScript = """
        #!/bin/sh
        # Written by KioskPrint's lab: runs its private cupsd for as long as the process $1 lives.
        bench="$1"; shift
        "$@" &
        child=$!
        trap 'kill "$child" 2>/dev/null; wait "$child"; exit 0' TERM INT HUP
        while kill -0 "$bench" 2>/dev/null && kill -0 "$child" 2>/dev/null; do sleep 0.2; done
        kill "$child" 2>/dev/null
        wait "$child"

        """

    static func filesConfiguration(_ directory: URL) -> String {
        let root = directory.path
        return """
            # KioskPrint's lab's private cupsd: every path inside \(root).
            ServerRoot \(root)
            RequestRoot \(root)/spool
            CacheDir \(root)/cache
            StateDir \(root)/state
            TempDir \(root)/tmp
            AccessLog \(root)/log/access_log
            ErrorLog \(root)/log/error_log
            PageLog \(root)/log/page_log
            Printcap \(root)/printcap
            ServerBin /usr/lib/cups
            DataDir /usr/share/cups
            SystemGroup root
            FileDevice No

            """
    }

    static func mainConfiguration(port: Int, logLevel: String) -> String {
        """
        # KioskPrint's lab's private cupsd: loopback only, no browsing, no authentication.
        LogLevel \(logLevel)
        Listen localhost:\(port)
        Browsing No
        WebInterface No
        DefaultAuthType None
        # A failed job ends as aborted at once (Debian's retry-job would retry it after 30 s).
        ErrorPolicy abort-job
        <Location />
          Order allow,deny
          Allow all
        </Location>
        <Policy default>
          JobPrivateAccess all
          JobPrivateValues none
          SubscriptionPrivateAccess all
          SubscriptionPrivateValues none
          <Limit All>
            Order deny,allow
          </Limit>
        </Policy>

        """
    }

    /// The program's path: PATH, the sbin folders, or CUPS' filter folder.
    static func locate(_ program: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        let folders = path.split(separator: ":").map(String.init) + ["/usr/sbin", "/sbin", "/usr/lib/cups/filter"]
        return folders.map { "\($0)/\(program)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}
