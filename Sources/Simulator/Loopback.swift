import Foundation
public import Glibc

/// Loopback TCP helpers for starting servers on free ports.
public enum Loopback {
    /// A TCP port that is free on 127.0.0.1 right now (the kernel picks it, and
    /// its socket is closed again): for a server to start on, or as a port
    /// where nothing listens.
    public static func freePort() throws -> Int {
        // Below the kernel's ephemeral range (32768-60999 here), where outgoing
        // connections take their local ports: a port the kernel hands out as
        // "free" can be given to a client socket before the server binds it.
        for _ in 0..<200 {
            let candidate = Int.random(in: 20_000..<32_768)
            if canBind(candidate) { return candidate }
        }
        throw LabError.timedOut("a free loopback port between 20000 and 32767")
    }

    /// Whether 127.0.0.1:`port` can be bound now.
    static func canBind(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        return withAddress(port: port) { bind(fd, $0, $1) } == 0
    }

    /// Calls `body` with `host`:`port` (IPv4) as the `sockaddr` and length that bind and connect take.
    public static func withAddress<T>(host: String = "127.0.0.1", port: Int, _ body: (UnsafePointer<sockaddr>, socklen_t) -> T) -> T {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr(host)
        address.sin_port = UInt16(port).bigEndian
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
    }

    /// True when something accepts TCP connections on 127.0.0.1:`port`.
    public static func accepts(port: Int) -> Bool {
        guard let fd = connect(port: port) else { return false }
        close(fd)
        return true
    }

    /// A TCP socket connected to 127.0.0.1:`port`, nil when nothing accepts
    /// there; the caller closes it.
    public static func connect(port: Int) -> Int32? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        guard withAddress(port: port, { Glibc.connect(fd, $0, $1) }) == 0 else {
            close(fd)
            return nil
        }
        return fd
    }
}
