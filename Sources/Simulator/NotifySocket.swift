import Foundation
import Glibc

/// The datagram socket systemd gives a `Type=notify` service as
/// `$NOTIFY_SOCKET`, held by a test or the bench: what the service sends
/// (`READY=1`, `STATUS=...`, `STOPPING=1`) arrives here.
public final class NotifySocket: Sendable {
    /// The socket's path, for `$NOTIFY_SOCKET`.
    public let path: String
    let fd: Int32

    /// - Parameter receiveTimeout: how long ``receive()`` waits, which bounds
    ///   a failure only: a message normally comes within milliseconds.
    public init(receiveTimeout: Duration = .seconds(30)) throws {
        // sun_path holds 108 bytes: a short name under /tmp.
        path = "/tmp/kioskprint-notify-\(getpid())-\(UUID().uuidString.prefix(6))"
        unlink(path)
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw LabError.notifySocket("socket(AF_UNIX, SOCK_DGRAM): \(String(cString: strerror(errno)))") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.utf8.enumerated() { raw[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw LabError.notifySocket("cannot bind \(path): \(reason)")
        }
        let (seconds, attoseconds) = receiveTimeout.components
        var limit = timeval(tv_sec: Int(seconds), tv_usec: Int(attoseconds / 1_000_000_000_000))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit {
        close(fd)
        unlink(path)
    }

    /// The next datagram, or nil when none came within the timeout. Blocks the calling thread.
    public func receive() -> String? {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = recv(fd, &buffer, buffer.count, 0)
        return count > 0 ? String(decoding: buffer.prefix(count), as: UTF8.self) : nil
    }

    /// Throws away what was sent before (STOPPING=1, STATUS=...).
    public func drain() {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT)) > 0 {}
    }
}
