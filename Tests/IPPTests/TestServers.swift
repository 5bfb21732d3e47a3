import Foundation
import Simulator

/// A small HTTP server on loopback that is not an IPP printer, run with
/// python3 (stdlib only) through Simulator's `Spawned`. It binds port 0 and
/// prints the port once it listens, so the start waits for that line, not for
/// a fixed time.
struct LoopbackServer {
    enum Mode: String {
        /// Python's SimpleHTTPRequestHandler: answers POST with 501.
        case plain
        /// Answers every POST with 200 text/html.
        case html
        /// Answers every POST with 401 and a Basic challenge.
        case auth
        /// Accepts, reads a little, closes without a word.
        case close
    }

    let port: Int
    private let process: Spawned
    private let folder: URL

    init(_ mode: Mode) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("kioskprint-http-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let output = folder.appendingPathComponent("out").path, errors = folder.appendingPathComponent("err").path
        process = try Spawned.start("python3", ["-c", Self.script, mode.rawValue], output: output, errors: errors)

        // Its first line is the port: it listens from then on.
        let deadline = ContinuousClock.now + .seconds(10)
        var printed = ""
        while !printed.hasSuffix("\n"), process.isRunning, ContinuousClock.now < deadline {
            usleep(5_000)  // polling for the port line, bounded by the deadline
            printed = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        }
        guard let port = Int(printed.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            let said = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
            process.stop(grace: .milliseconds(100))
            try? FileManager.default.removeItem(at: folder)
            throw LabError.didNotStart(program: "python3 (\(mode) server)", log: "printed no port\n\(said.suffix(1000))")
        }
        self.port = port
    }

    /// Stops the server (SIGTERM to its own process id), reaps it and removes its folder.
    func stop() {
        process.stop()
        try? FileManager.default.removeItem(at: folder)
    }

    private static let script = #"""
    import http.server, socket, sys
    mode = sys.argv[1]
    class Handler(http.server.BaseHTTPRequestHandler):
        def do_POST(self):
            self.rfile.read(int(self.headers.get("Content-Length") or 0))
            if mode == "html":
                body = b"<html><body>Printer web page</body></html>"
                self.send_response(200); self.send_header("Content-Type", "text/html")
            else:
                body = b"Unauthorized"
                self.send_response(401); self.send_header("WWW-Authenticate", 'Basic realm="printer"')
            self.send_header("Content-Length", str(len(body))); self.end_headers(); self.wfile.write(body)
        def log_message(self, *args): pass
    if mode == "close":
        listener = socket.socket(); listener.bind(("127.0.0.1", 0)); listener.listen(8)
        print(listener.getsockname()[1], flush=True)
        while True:
            connection, _ = listener.accept(); connection.recv(64); connection.close()
    handler = http.server.SimpleHTTPRequestHandler if mode == "plain" else Handler
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    print(server.server_address[1], flush=True)
    server.serve_forever()
    """#
}

/// Seconds of a Duration, for messages and bounds.
func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

/// Stops a printer a test started, on a thread of its own: `stop()` blocks
/// until the printer has exited, and the timing assertions of other tests
/// should not wait behind it on Swift's two cooperative threads.
func retire(_ printer: RunningPrinter) {
    Thread.detachNewThread { printer.stop() }
}
