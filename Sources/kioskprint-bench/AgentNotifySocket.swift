import Foundation

/// The datagram socket systemd would give the agent as `$NOTIFY_SOCKET`,
/// held by the bench: the agent's `READY=1` arrives here, so its start-up is
/// timed to the moment it tells systemd it is ready.
final class AgentNotifySocket: Sendable {
    let path: String
    let fd: Int32

    init() throws {
        // sun_path holds 108 bytes: a short name under /tmp.
        path = "/tmp/kioskprint-bench-notify-\(getpid())-\(UUID().uuidString.prefix(6))"
        unlink(path)
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw BenchError("socket(AF_UNIX, SOCK_DGRAM): \(String(cString: strerror(errno)))") }
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
            throw BenchError("cannot bind the notify socket \(path): \(reason)")
        }
        // recv gives up after a second, so that a caller can see the agent has exited instead.
        var limit = timeval(tv_sec: 1, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit {
        close(fd)
        unlink(path)
    }

    /// The next datagram, or nil when none came within a second. Blocks the calling thread.
    func receive() -> String? {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = recv(fd, &buffer, buffer.count, 0)
        return count > 0 ? String(decoding: buffer.prefix(count), as: UTF8.self) : nil
    }

    /// Throws away what earlier runs sent (STOPPING=1, STATUS=...).
    func drain() {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT)) > 0 {}
    }
}
