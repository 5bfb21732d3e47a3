import Foundation
import Glibc

/// A plain TCP client on loopback, standing in for the agent's raw
/// connection or for a till: blocking writes, bounded reads (a read that
/// gets nothing within `readTimeout` is a failure, not a wait), and
/// non-blocking writes to see a full socket.
public final class RawClient: @unchecked Sendable {  // one test uses a client at a time
    let fd: Int32

    /// Connects to `host`:`port` (an IPv4 loopback address), from `source`
    /// when given (another loopback address, to be a client from elsewhere).
    /// `sendBuffer` shrinks this side's send buffer, so that a printer that
    /// stops reading fills the path sooner.
    public init(host: String = "127.0.0.1", port: Int, source: String? = nil, sendBuffer: Int? = nil,
                readTimeout: Duration = .seconds(30)) throws {
        // CLOEXEC: a printer process another suite spawns meanwhile must not inherit it and keep it open.
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw ClientError.failed("socket", errno) }
        if var size = sendBuffer.map(Int32.init) {
            setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var limit = timeval(tv_sec: Int(readTimeout.components.seconds), tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        if let source {
            let bound = Loopback.withAddress(host: source, port: 0) { bind(fd, $0, $1) }
            guard bound == 0 else {
                let code = errno
                close(fd)
                throw ClientError.failed("bind to \(source)", code)
            }
        }
        let connected = Loopback.withAddress(host: host, port: port) { connect(fd, $0, $1) }
        guard connected == 0 else {
            let code = errno
            close(fd)
            throw ClientError.failed("connect to \(host):\(port)", code)
        }
    }

    deinit { close(fd) }

    /// Ends this side's writing (a half close): the other side reads the end, and may still answer.
    public func finishSending() { shutdown(fd, Int32(SHUT_WR)) }

    /// Writes everything, bounded by the send timeout, on a thread of its
    /// own: a blocked socket call must not hold one of the cooperative
    /// pool's two threads while the other suites run.
    public func send(_ bytes: [UInt8]) async throws { try await offloaded { try self.sendNow(bytes) } }

    /// Exactly `count` bytes, off the cooperative pool; throws if they do not come within the read timeout.
    public func receive(_ count: Int) async throws -> [UInt8] { try await offloaded { try self.receiveNow(count) } }

    /// How the connection ended (see `readUntilClosedNow`), off the cooperative pool.
    public func readUntilClosed() async throws -> Int32 { try await offloaded { try self.readUntilClosedNow() } }

    private func sendNow(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let count = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { throw ClientError.failed("send", errno) }
            offset += count
        }
    }

    /// One non-blocking write: the bytes taken, or nil when the socket is full (EAGAIN).
    public func sendWithoutWaiting(_ bytes: ArraySlice<UInt8>) throws -> Int? {
        let count = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
        if count >= 0 { return count }
        if errno == EAGAIN || errno == EWOULDBLOCK { return nil }
        throw ClientError.failed("send", errno)
    }

    private func receiveNow(_ count: Int) throws -> [UInt8] {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: max(count, 1))
        while received.count < count {
            let got = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, count - received.count, 0) }
            guard got > 0 else {
                throw ClientError.failed("recv (after \(received.count) of \(count) bytes)", got == 0 ? 0 : errno)
            }
            received += buffer[0..<got]
        }
        return received
    }

    /// Reads until the connection ends; returns how it ended: 0 for an
    /// orderly close, ECONNRESET for a reset. Throws on a timeout.
    private func readUntilClosedNow() throws -> Int32 {
        var buffer = [UInt8](repeating: 0, count: 1024)
        while true {
            let got = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if got == 0 { return 0 }
            if got < 0 {
                if errno == EAGAIN || errno == EWOULDBLOCK { throw ClientError.failed("recv: the connection stayed open", errno) }
                return errno
            }
        }
    }
}

public enum ClientError: Error, CustomStringConvertible {
    case failed(String, Int32)

    public var description: String {
        switch self {
        case .failed(let call, let code): "\(call) failed: \(code == 0 ? "connection closed" : String(cString: strerror(code)))"
        }
    }
}
