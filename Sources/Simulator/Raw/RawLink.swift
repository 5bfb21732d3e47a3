import Dispatch
import Foundation
import Glibc
import Synchronization

/// The byte pipe between a client and a simulated printer's engine: a
/// thread of its own reads a TCP connection (one at a time, as a printer
/// serves them; a second client waits in the listen queue) or a
/// pseudo-terminal's master side, feeds the engine, and writes its answers.
///
/// The faults a test sets act here, where a real printer's interface would
/// show them: reading stops (the client's writes fill the socket and then
/// block), or the connection drops after a number of bytes. A line speed,
/// when given, paces the reading as a serial line or a slow printer would.
///
/// Everything the thread does with a connection happens under `line`'s
/// lock, so once `stopReading()` returns, not one more byte is read.
final class RawLink<Engine: RawPrinterEngine>: Sendable {
    /// What the thread reads from.
    enum Transport: Sendable {
        /// A listening TCP socket on 127.0.0.1.
        case listener(Int32)
        /// A pseudo-terminal: the master side the printer reads, and the slave
        /// side kept open so the line never hangs up while the agent closes
        /// and reopens it.
        case pseudoTerminal(master: Int32, slave: Int32)
    }

    /// The state the thread and the test share.
    struct Line {
        var engine: Engine
        /// The open connection (TCP) or the master side (pseudo-terminal); -1 when none.
        var connection: Int32 = -1
        var bytesReceived = 0
        /// Every byte received, in order (the first 32 MB), for tests that compare them with what a client sent.
        var received: [UInt8] = []
        var bytesSent = 0
        var connectionsAccepted = 0
        var readingStopped = false
        /// Bytes still to read before the connection is dropped; nil when no drop is planned.
        var dropAfter: Int?
        /// A pseudo-terminal that was hung up (a drop): nothing more comes.
        var hungUp = false
        var stopping = false
    }

    let endpoint: RawEndpoint
    let line: Mutex<Line>
    private let transport: Transport
    /// The most bytes a second the thread reads; nil reads whatever has come.
    private let bytesPerSecond: Int?
    private let bell: Doorbell
    private let ended = DispatchSemaphore(value: 0)

    /// Starts the reading thread at once.
    init(engine: Engine, transport: Transport, endpoint: RawEndpoint, bytesPerSecond: Int? = nil) throws {
        self.endpoint = endpoint
        self.transport = transport
        self.bytesPerSecond = bytesPerSecond
        bell = try Doorbell()
        var initial = Line(engine: engine)
        if case .pseudoTerminal(let master, _) = transport { initial.connection = master }
        line = Mutex(initial)
        let thread = Thread { [self] in
            run()
            ended.signal()
        }
        thread.name = "raw printer \(endpoint.uri())"
        thread.start()
    }

    /// Reads the engine's state under the lock.
    func read<T>(_ body: (Engine) -> T) -> T {
        line.withLock { body($0.engine) }
    }

    /// Changes the engine (a state a test sets) and sends what it answers on
    /// the open connection, as a printer sends a held response once it can.
    func update(_ change: (inout Engine) -> [UInt8]) {
        line.withLock { line in
            let answers = change(&line.engine)
            send(answers, in: &line)
        }
    }

    /// Stops reading: the socket's buffers fill and the client's writes block.
    func stopReading() {
        line.withLock { $0.readingStopped = true }
        bell.ring()
    }

    /// Reads again, starting with what waited in the socket.
    func resumeReading() {
        line.withLock { $0.readingStopped = false }
        bell.ring()
    }

    /// Drops the connection once `count` more bytes have been read (0: at once).
    func dropConnection(afterBytes count: Int) {
        line.withLock { $0.dropAfter = max(0, count) }
        bell.ring()
    }

    /// Stops the thread and closes every descriptor. Safe to call twice.
    func stop() {
        let first = line.withLock { line in
            defer { line.stopping = true }
            return !line.stopping
        }
        guard first else { return }
        bell.ring()
        ended.wait()
        line.withLock { line in
            if line.connection >= 0 { close(line.connection) }
            line.connection = -1
        }
        // A pseudo-terminal's master was the connection, closed above; its
        // slave is closed here unless a drop (hang-up) closed it already.
        switch transport {
        case .listener(let fd): close(fd)
        case .pseudoTerminal(_, let slave): if !line.withLock({ $0.hungUp }) { close(slave) }
        }
    }

    // MARK: The reading thread

    private enum Step {
        case stop
        case waitForBell
        case accept(Int32)
        case read(Int32)
    }

    private func run() {
        var buffer = [UInt8](repeating: 0, count: 4096)
        var pace = bytesPerSecond.map(LinePace.init)
        while true {
            let step: Step = line.withLock { line in
                if line.stopping { return .stop }
                if line.connection < 0 {
                    if case .listener(let fd) = transport { return .accept(fd) }
                    return .waitForBell
                }
                if line.dropAfter == 0 {
                    drop(&line)
                    return .waitForBell
                }
                return line.readingStopped ? .waitForBell : .read(line.connection)
            }
            switch step {
            case .stop:
                return
            case .waitForBell:
                // Not reading: only a ring (resume, drop, stop) changes anything.
                _ = poll(readable: nil)
            case .accept(let listener):
                if poll(readable: listener) { accept(from: listener) }
            case .read(let fd):
                let allowed = pace?.available() ?? buffer.count
                guard allowed > 0 else {
                    // The line has not carried the next piece yet: wait for it (or a ring).
                    _ = poll(readable: nil, timeout: pace?.millisecondsToNextPiece ?? -1)
                    continue
                }
                if poll(readable: fd) {
                    let count = readOnce(from: fd, into: &buffer, atMost: allowed)
                    pace?.took(count)
                }
            }
        }
    }

    /// Waits for `fd` (if any) or the bell, at most `timeout` ms (-1: no
    /// limit); true when `fd` is readable (or hung up).
    private func poll(readable fd: Int32?, timeout: Int32 = -1) -> Bool {
        var watched = [pollfd(fd: bell.readEnd, events: Int16(POLLIN), revents: 0)]
        if let fd { watched.append(pollfd(fd: fd, events: Int16(POLLIN), revents: 0)) }
        let ready = Glibc.poll(&watched, nfds_t(watched.count), timeout)
        guard ready > 0 else { return false }
        if watched[0].revents != 0 { bell.drain() }
        return watched.count > 1 && watched[1].revents != 0
    }

    private func accept(from listener: Int32) {
        let fd = Glibc.accept(listener, nil, nil)
        guard fd >= 0 else { return }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        line.withLock { line in
            line.connection = fd
            line.connectionsAccepted += 1
        }
    }

    /// One read, under the lock, of at most `allowed` bytes and what a
    /// planned drop allows; returns how many were read.
    private func readOnce(from fd: Int32, into buffer: inout [UInt8], atMost allowed: Int) -> Int {
        line.withLock { line in
            guard !line.stopping, !line.readingStopped, line.connection == fd else { return 0 }
            let limit = min(buffer.count, allowed, line.dropAfter ?? buffer.count)
            guard limit > 0 else { return 0 }
            let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, limit) }
            if count > 0 {
                line.bytesReceived += count
                if line.received.count < 32 << 20 { line.received += buffer[0..<count] }
                let answers = line.engine.receive(buffer[0..<count])
                send(answers, in: &line)
                if let left = line.dropAfter { line.dropAfter = left - count }
                if line.dropAfter == 0 { drop(&line) }
            } else if count == 0 || (errno != EAGAIN && errno != EINTR) {
                // The client closed (or reset) the connection. A pseudo-terminal's
                // master never ends here: the slave side is held open.
                if case .listener = transport { endConnection(&line) }
            }
            return max(0, count)
        }
    }

    /// Writes answers without blocking; what a client does not take is lost,
    /// as a printer's status bytes are when the host is not reading.
    private func send(_ answers: [UInt8], in line: inout Line) {
        guard !answers.isEmpty, line.connection >= 0 else { return }
        let sent = answers.withUnsafeBytes { bytes -> Int in
            switch transport {
            case .listener: Glibc.send(line.connection, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL))
            case .pseudoTerminal: Glibc.write(line.connection, bytes.baseAddress, bytes.count)
            }
        }
        if sent > 0 { line.bytesSent += sent }
    }

    /// The planned drop: a TCP connection is reset (SO_LINGER 0, so the client
    /// sees the connection broken, not a polite end); a pseudo-terminal hangs
    /// up for good, as a USB-serial adapter pulled out.
    private func drop(_ line: inout Line) {
        line.dropAfter = nil
        guard line.connection >= 0 else { return }
        switch transport {
        case .listener:
            var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
            setsockopt(line.connection, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
            endConnection(&line)
        case .pseudoTerminal(_, let slave):
            close(slave)
            endConnection(&line)
            line.hungUp = true
        }
    }

    private func endConnection(_ line: inout Line) {
        close(line.connection)
        line.connection = -1
        line.engine.connectionEnded()
    }
}
