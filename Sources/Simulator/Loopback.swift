import Foundation

/// Loopback TCP helpers for starting servers on free ports.
public enum Loopback {
    /// A TCP port that is free on 127.0.0.1 right now (the kernel picks it, and
    /// its socket is closed again): for a server to start on, or as a port
    /// where nothing listens.
    public static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw LabError.timedOut("a socket for a free port") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, length) == 0 && getsockname(fd, pointer, &length) == 0
            }
        }
        guard bound else { throw LabError.timedOut("a free loopback port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// True when something accepts TCP connections on 127.0.0.1:`port`.
    static func accepts(port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }
}

/// Waits until `condition` holds, checking every 10 ms, or throws after `limit`.
/// The wait ends on the event itself; the limit only bounds a failure.
func waitUntil(_ what: String, within limit: Duration = .seconds(10),
               _ condition: () throws -> Bool) throws {
    let deadline = ContinuousClock.now + limit
    while try !condition() {
        if ContinuousClock.now > deadline { throw LabError.timedOut(what) }
        usleep(10_000)
    }
}
