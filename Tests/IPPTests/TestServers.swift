import Foundation
import Simulator

/// A small HTTP server on loopback that is not an IPP printer, run with
/// python3 (stdlib only). It binds port 0 and prints the port once it
/// listens, so the test waits for that line, not for a fixed time.
///
/// Started with posix_spawn rather than Foundation's Process: in a process
/// that also runs the lab, Process's child monitor blocks in wait4 on the
/// lab's avahi-daemon and never reports another child's exit. The child gets
/// an empty signal mask: it would otherwise inherit the spawning thread's,
/// and Swift's worker threads block SIGTERM.
final class LoopbackServer {
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

    struct StartFailure: Error { var reason: String }

    let port: Int
    private let pid: pid_t
    private var stopped = false

    init(_ mode: Mode) throws {
        var pipeEnds: [Int32] = [0, 0]
        guard pipe(&pipeEnds) == 0 else { throw StartFailure(reason: "pipe") }
        let (readEnd, writeEnd) = (pipeEnds[0], pipeEnds[1])
        defer { close(readEnd) }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, writeEnd, 1)
        posix_spawn_file_actions_addclose(&actions, readEnd)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGTERM)
        sigaddset(&defaults, SIGPIPE)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let arguments = ["python3", "-c", Self.script, mode.rawValue]
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var child: pid_t = 0
        let spawned = posix_spawnp(&child, "python3", &actions, &attributes, &argv, environ)
        close(writeEnd)
        guard spawned == 0 else { throw StartFailure(reason: "posix_spawnp python3: \(spawned)") }
        pid = child

        // Blocks until the server prints its port: it listens from then on.
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while read(readEnd, &byte, 1) == 1, byte != 10 { line.append(byte) }
        guard let port = Int(String(decoding: line, as: UTF8.self)) else {
            kill(child, SIGKILL)
            waitpid(child, nil, 0)
            throw StartFailure(reason: "python3 printed no port")
        }
        self.port = port
    }

    /// Stops the server (SIGTERM to its own process id) and reaps it.
    func stop() {
        guard !stopped else { return }
        stopped = true
        kill(pid, SIGTERM)
        waitpid(pid, nil, 0)
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

/// A loopback port where nothing listens: the kernel picks a free one, and
/// the socket is closed again before it is returned.
func unusedLoopbackPort() -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
    }
    return Int(UInt16(bigEndian: address.sin_port))
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
