import Dispatch
import Foundation
import Glibc
import Synchronization

/// Something on a printer's port that never stops talking: it accepts one
/// connection on 127.0.0.1 and sends zeros for as long as the connection
/// takes them, until the client closes it. No status answer is ever among
/// them, so a client that reads until it finds one reads for ever; the
/// tests of bounded status reads stand on it.
///
/// `bytesPerSecond` paces it (a trickle that never stops); without it, it
/// sends as fast as loopback goes. `limit` only guards the test machine
/// against a client that reads without end: it is far past any answer.
public final class ChattyPeer: Sendable {
    /// The TCP port on 127.0.0.1.
    public let port: Int
    private let listener: Int32
    private let bell: Doorbell
    private let sent = Mutex(0)
    private let stopping = Mutex(false)
    private let ended = DispatchSemaphore(value: 0)

    public init(bytesPerSecond: Int? = nil, limit: Int = 256 << 20) throws {
        let opened = try LoopbackListenSocket.open(port: 0, receiveBuffer: nil)
        listener = opened.fd
        port = opened.port
        do { bell = try Doorbell() } catch {
            close(opened.fd)
            throw error
        }
        let thread = Thread { [self] in
            talk(pace: bytesPerSecond.map(LinePace.init), limit: limit)
            ended.signal()
        }
        thread.name = "chatty peer :\(port)"
        thread.start()
    }

    deinit { stop() }

    /// `socket://127.0.0.1:PORT`.
    public var uri: String { "socket://127.0.0.1:\(port)" }

    /// Bytes the connection has taken so far.
    public var bytesSent: Int { sent.withLock { $0 } }

    /// Stops talking and closes the connection and the port. Safe to call twice.
    public func stop() {
        let first = stopping.withLock { stopping in
            defer { stopping = true }
            return !stopping
        }
        guard first else { return }
        bell.ring()
        ended.wait()
        close(listener)
    }

    private func talk(pace: LinePace?, limit: Int) {
        guard wait(for: listener, Int16(POLLIN)) else { return }
        let connection = accept(listener, nil, nil)
        guard connection >= 0 else { return }
        defer { close(connection) }
        _ = fcntl(connection, F_SETFL, fcntl(connection, F_GETFL) | O_NONBLOCK)
        var pace = pace
        let zeros = [UInt8](repeating: 0, count: 65536)
        while !stopped, bytesSent < limit {
            let allowed = min(zeros.count, limit - bytesSent, pace?.available() ?? zeros.count)
            if allowed == 0, let pause = pace?.millisecondsToNextPiece {
                _ = wait(for: nil, timeout: pause)  // the trickle's next piece, or the bell
                continue
            }
            guard wait(for: connection, Int16(POLLOUT)) else { return }
            let count = zeros.withUnsafeBytes { send(connection, $0.baseAddress, allowed, Int32(MSG_NOSIGNAL)) }
            if count < 0 && (errno == EAGAIN || errno == EINTR) { continue }
            guard count > 0 else { return }  // the client closed the connection
            sent.withLock { $0 += count }
            pace?.took(count)
        }
    }

    private var stopped: Bool { stopping.withLock { $0 } }

    /// Waits until `fd` (if any) is ready for `events` or has hung up, the
    /// bell rings, or `timeout` ms pass (-1: no limit); false once stopping.
    private func wait(for fd: Int32?, _ events: Int16 = 0, timeout: Int32 = -1) -> Bool {
        var watched = [pollfd(fd: bell.readEnd, events: Int16(POLLIN), revents: 0)]
        if let fd { watched.append(pollfd(fd: fd, events: events, revents: 0)) }
        while poll(&watched, nfds_t(watched.count), timeout) < 0 && errno == EINTR {}
        if watched[0].revents != 0 { bell.drain() }
        return !stopped
    }
}
