internal import CRawIO
import Glibc
import Synchronization
import Timers

/// A non-blocking descriptor with reads and writes that wait in poll(2) up
/// to a deadline: the I/O shared by every kind of raw link.
///
/// It stays open while a call uses it: `close()` during a call wakes the
/// call (through the wake pipe) and the call closes the descriptor on its
/// way out, so no other thread can be handed the same number meanwhile.
final class PollingDescriptor: Sendable {
    /// Sockets are written with send(MSG_NOSIGNAL), so a printer that resets
    /// the connection gives EPIPE rather than killing the agent with SIGPIPE,
    /// and a read of 0 bytes there means the printer closed the connection.
    enum Kind: Sendable { case socket, device }

    let uri: RawPrinterURI
    let kind: Kind
    private let wake: WakePipe
    private let state: Mutex<State>

    private struct State {
        var fd: Int32
        var users = 0
        var closing = false
    }

    /// Takes ownership of `fd`, which must be non-blocking; it is closed
    /// (and `.systemError` thrown) if the wake pipe cannot be made.
    init(fd: Int32, kind: Kind, uri: RawPrinterURI) throws(LinkError) {
        guard let wake = WakePipe() else {
            let code = errno
            Glibc.close(fd)
            throw LinkError(uri: uri, reason: .systemError(operation: "pipe", errno: code))
        }
        self.uri = uri
        self.kind = kind
        self.wake = wake
        state = Mutex(State(fd: fd))
    }

    /// Writes every byte, waiting in poll(2) while the link is full. The
    /// printer is stalled, and `.writeTimedOut` thrown, only when it takes no
    /// byte for `stallWindow`, counted from when the line can have carried
    /// what it took: a serial port's buffer (or a pseudo-terminal's 12 KB)
    /// empties at the line's speed and takes more only once nearly empty. A
    /// long job on a slow line goes on for as long as the line carries it.
    func write(_ bytes: [UInt8], stallWindow: Duration) throws(LinkError) {
        guard !bytes.isEmpty else { return }
        let start = ContinuousClock.now
        try borrow { fd throws(LinkError) in
            var sent = 0
            var lastTaken = start
            while sent < bytes.count {
                let (count, code) = bytes.withUnsafeBytes { buffer in
                    let from = buffer.baseAddress! + sent, length = bytes.count - sent
                    let count = kind == .socket ? send(fd, from, length, Int32(MSG_NOSIGNAL)) : Glibc.write(fd, from, length)
                    return (count, errno)
                }
                if count > 0 {
                    sent += count
                    lastTaken = .now
                    continue
                }
                switch code {
                case EINTR:
                    continue
                case EAGAIN, EWOULDBLOCK:
                    let deadline = max(lastTaken, start + uri.lineTime(for: sent)) + stallWindow
                    switch try wait(fd, for: Int16(POLLOUT), until: deadline) {
                    case .ready: continue
                    case .hungUp: throw error(.connectionLost(errno: nil, sent: sent, total: bytes.count))
                    case .deadline:
                        throw error(.writeTimedOut(sent: sent, total: bytes.count, seconds: stallWindow.seconds))
                    }
                case EPIPE, ECONNRESET, EIO, ENODEV, ENXIO, ETIMEDOUT, EHOSTUNREACH, ENETUNREACH:
                    throw error(.connectionLost(errno: code, sent: sent, total: bytes.count))
                default:
                    throw error(.systemError(operation: "writing", errno: code))
                }
            }
        }
    }

    func read(atMost count: Int, deadline: ContinuousClock.Instant) throws(LinkError) -> [UInt8] {
        guard count > 0 else { return [] }
        return try borrow { fd throws(LinkError) in
            var buffer = [UInt8](repeating: 0, count: count)
            while true {
                let (got, code) = buffer.withUnsafeMutableBytes { space in
                    let got = kind == .socket ? recv(fd, space.baseAddress, count, 0) : Glibc.read(fd, space.baseAddress, count)
                    return (got, errno)
                }
                if got > 0 { return Array(buffer[..<got]) }
                // A socket's 0 means the printer hung up. A device (usblp)
                // may read 0 when nothing is there; a terminal whose line
                // hung up reads 0 too, and polls as POLLHUP.
                if got == 0 {
                    if kind == .socket || hasHungUp(fd) {
                        throw error(.connectionLost(errno: nil, sent: nil, total: nil))
                    }
                    return []
                }
                switch code {
                case EINTR:
                    continue
                case EAGAIN, EWOULDBLOCK:
                    switch try wait(fd, for: Int16(POLLIN), until: deadline) {
                    case .ready, .hungUp: continue  // the next read says what a hang-up means
                    case .deadline: return []
                    }
                case ECONNRESET, EIO, ENODEV, ENXIO, ETIMEDOUT, EHOSTUNREACH, ENETUNREACH:
                    throw error(.connectionLost(errno: code, sent: nil, total: nil))
                default:
                    throw error(.systemError(operation: "reading", errno: code))
                }
            }
        }
    }

    /// Bytes written that have not left this side of the link yet (a
    /// terminal's output queue, a socket's unacknowledged data); nil when the
    /// descriptor cannot tell (usblp) or is closed.
    func unsentBytes() -> Int? {
        // Borrowed, so that a close() meanwhile cannot hand the number to another file.
        guard let queued = try? borrow({ fd in kp_output_queue(fd) }), queued >= 0 else { return nil }
        return Int(queued)
    }

    /// Closes now, or wakes the call in progress, which then closes.
    func close() {
        let closeNow: Int32? = state.withLock { state in
            guard !state.closing else { return nil }
            state.closing = true
            return state.users == 0 ? state.fd : nil
        }
        wake.wake()
        if let closeNow { release(closeNow) }
    }

    deinit {
        // A link dropped without close(): nothing can be using it any more.
        let fd: Int32? = state.withLock { $0.closing ? nil : $0.fd }
        if let fd { release(fd) }
    }

    // MARK: Waiting

    private enum Readiness { case ready, hungUp, deadline }

    /// Waits until `fd` is ready for `events`, hangs up, or the deadline
    /// passes; throws `.closed` when `close()` is called meanwhile.
    private func wait(_ fd: Int32, for events: Int16, until deadline: ContinuousClock.Instant) throws(LinkError) -> Readiness {
        while true {
            var fds = [pollfd(fd: fd, events: events, revents: 0),
                       pollfd(fd: wake.readEnd, events: Int16(POLLIN), revents: 0)]
            let timeout = deadline.pollTimeout
            let ready = poll(&fds, 2, timeout)
            if ready < 0 {
                if errno == EINTR { continue }
                throw error(.systemError(operation: "waiting (poll)", errno: errno))
            }
            if fds[1].revents != 0 { throw error(.closed) }
            if fds[0].revents & events != 0 { return .ready }
            if fds[0].revents & Int16(POLLERR | POLLHUP | POLLNVAL) != 0 { return .hungUp }
            // poll's milliseconds may end a hair before the deadline: look again.
            if ContinuousClock.now >= deadline { return .deadline }
        }
    }

    private func hasHungUp(_ fd: Int32) -> Bool {
        var fds = [pollfd(fd: fd, events: 0, revents: 0)]
        return poll(&fds, 1, 0) > 0 && fds[0].revents & Int16(POLLHUP | POLLERR) != 0
    }

    // MARK: Keeping the descriptor open during a call

    private func borrow<T>(_ body: (Int32) throws(LinkError) -> T) throws(LinkError) -> T {
        let fd: Int32? = state.withLock { state in
            guard !state.closing else { return nil }
            state.users += 1
            return state.fd
        }
        guard let fd else { throw error(.closed) }
        defer {
            let closeNow = state.withLock { state in
                state.users -= 1
                return state.closing && state.users == 0
            }
            if closeNow { release(fd) }
        }
        do {
            return try body(fd)
        } catch {
            // Whatever the call saw after close() (EPIPE from a shutdown), the cause is the close.
            if state.withLock({ $0.closing }) { throw self.error(.closed) }
            throw error
        }
    }

    private func release(_ fd: Int32) {
        Glibc.close(fd)
        wake.closeReadEnd()
    }

    private func error(_ reason: LinkError.Reason) -> LinkError {
        LinkError(uri: uri, reason: reason)
    }
}
