public import Foundation

/// LPrint (Debian's `lprint`, built on PAPPL), a real IPP printer
/// application for Zebra and DYMO label printers, as an independent peer for
/// tests: a printer KioskPrint's authors did not write, with its own idea of
/// media, substitution and ZPL. What its label printer would receive is
/// written to `outputFolder`, one `.zpl` file per job.
///
/// LPrint binds every address whatever it is told, so it runs in a network
/// namespace of its own (`unshare -n`) and is reached through its Unix
/// socket, which `socat` bridges to a port on 127.0.0.1: nothing it opens is
/// seen beyond this machine's loopback.
public final class LPrintServer: Sendable {
    /// `ipp://127.0.0.1:PORT/ipp/print/NAME`.
    public let uri: String
    /// Where the printer's output goes, one file per job.
    public let outputFolder: URL
    private let folder: URL
    private let server: ChildProcess
    private let bridge: ChildProcess

    /// Starts LPrint with one printer of `driver` (`lprint drivers` lists
    /// them; `zpl_4inch-203dpi-dt` is a Zebra with 4x6 in direct thermal labels).
    public static func start(driver: String = "zpl_4inch-203dpi-dt", name: String = "zebra") async throws -> LPrintServer {
        for program in ["lprint", "socat", "unshare"] where (try? ProgramPath.resolve(program)) == nil {
            throw LabError.missingProgram(program)
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("kioskprint-lprint-\(UUID().uuidString.prefix(8))")
        let output = folder.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        LiveChildren.register(folder: folder.path)
        // HOME holds its state file, SNAP_COMMON its socket: nothing of the machine's own.
        let environment = ["HOME": folder.path, "SNAP_COMMON": folder.path]
        let socket = folder.appendingPathComponent("lprint.sock").path
        let server = try ChildProcess.launch("unshare", [
            "-n", "lprint", "server", "-o", "tls=no", "-o", "server-port=8631", "-o", "log-level=info",
            "-o", "log-file=\(folder.appendingPathComponent("lprint.log").path)",
        ], environment: environment, logFile: folder.appendingPathComponent("server.out"))
        do {
            try await offloaded {
                try waitUntil("LPrint's socket \(socket)") { FileManager.default.fileExists(atPath: socket) || !server.isRunning }
            }
            guard server.isRunning else { throw LabError.didNotStart(program: "lprint server", log: server.logTail()) }
            let added = try await offloaded {
                try Subprocess.run("lprint", ["add", "-d", name, "-m", driver, "-v", "file://\(output.path)?ext=zpl"],
                                   environment: environment, limit: .seconds(20))
            }
            guard added.status == 0 else {
                throw LabError.didNotStart(program: "lprint add", log: added.output + added.errors)
            }
            let port = try Loopback.freePort()
            let bridge = try ChildProcess.launch("socat", [
                "TCP-LISTEN:\(port),bind=127.0.0.1,reuseaddr,fork", "UNIX-CONNECT:\(socket)",
            ], logFile: folder.appendingPathComponent("socat.out"))
            try await offloaded { try waitUntil("socat on port \(port)") { Loopback.accepts(port: port) } }
            return LPrintServer(uri: "ipp://127.0.0.1:\(port)/ipp/print/\(name)", outputFolder: output, folder: folder,
                                server: server, bridge: bridge)
        } catch {
            server.stop()
            throw error
        }
    }

    private init(uri: String, outputFolder: URL, folder: URL, server: ChildProcess, bridge: ChildProcess) {
        self.uri = uri; self.outputFolder = outputFolder; self.folder = folder; self.server = server; self.bridge = bridge
    }

    /// The files jobs sent to the label printer so far (LPrint names each
    /// after its job), oldest name first. `printer.zpl` is not a job: it holds
    /// the status query (`~HQES`) LPrint writes each time it is asked its state.
    public func received() -> [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: outputFolder.path)) ?? []
        return names.filter { $0 != "printer.zpl" }.sorted().map { outputFolder.appendingPathComponent($0) }
    }

    /// LPrint's own log, for a failed test's message.
    public func logTail(lines: Int = 20) -> String {
        let text = (try? String(contentsOf: folder.appendingPathComponent("lprint.log"), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").suffix(lines).joined(separator: "\n")
    }

    public func stop() {
        bridge.stop()
        server.stop()
        try? FileManager.default.removeItem(at: folder)
    }
}
