import Glibc

/// A failure in a test's own set-up, with what went wrong.
struct SetupFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }

    static func system(_ call: String) -> SetupFailure {
        SetupFailure("\(call): \(String(cString: strerror(errno)))")
    }
}

/// A TCP listener on 127.0.0.1 at a port the kernel picks: the far end a raw
/// printer's port 9100 would be. Its calls block, bounded by deadlines; run
/// them through `offloaded`.
final class LoopbackListener: @unchecked Sendable { // descriptors are used by one test at a time
    let port: Int
    private let listenFD: Int32
    private var peerFD: Int32 = -1
    private var fillers: [Int32] = []

    /// `receiveBuffer` shrinks the accepted connection's receive buffer (set
    /// on the listener, which connections inherit), so a peer that never
    /// reads fills up after a few hundred kilobytes, not megabytes.
    /// `listening: false` binds the port but never listens: connecting to it is refused.
    /// `backlog` is listen(2)'s: once that many connections wait unaccepted,
    /// the kernel drops further handshakes, as a hung host does.
    init(receiveBuffer: Int32? = nil, listening: Bool = true, backlog: Int32 = 4) throws {
        let listenFD = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard listenFD >= 0 else { throw SetupFailure.system("socket") }
        if var size = receiveBuffer {
            _ = setsockopt(listenFD, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listenFD, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else { throw SetupFailure.system("bind") }
        if listening { guard listen(listenFD, backlog) == 0 else { throw SetupFailure.system("listen") } }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listenFD, $0, &length) }
        }
        guard named == 0 else { throw SetupFailure.system("getsockname") }
        port = Int(UInt16(bigEndian: address.sin_port))
        self.listenFD = listenFD
    }

    deinit {
        if peerFD >= 0 { close(peerFD) }
        fillers.forEach { close($0) }
        close(listenFD)
    }

    /// Accepts the one connection the test made (already queued by the kernel).
    func accept(within limit: Duration = .seconds(10)) throws {
        guard wait(listenFD, for: Int16(POLLIN), within: limit) else { throw SetupFailure("no connection to accept") }
        peerFD = Glibc.accept(listenFD, nil, nil)
        guard peerFD >= 0 else { throw SetupFailure.system("accept") }
        _ = fcntl(peerFD, F_SETFD, FD_CLOEXEC)
    }

    /// Every byte the peer sends until it closes the connection.
    func readUntilClosed(within limit: Duration = .seconds(20)) throws -> [UInt8] {
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        let deadline = ContinuousClock.now + limit
        while true {
            guard wait(peerFD, for: Int16(POLLIN), within: deadline - .now) else {
                throw SetupFailure("the link did not close the connection; \(received.count) bytes so far")
            }
            let got = chunk.withUnsafeMutableBytes { recv(peerFD, $0.baseAddress, $0.count, 0) }
            if got < 0 && errno == EINTR { continue }
            guard got > 0 else { return received }
            received += chunk[..<got]
        }
    }

    /// Starts `count` connections that are never accepted (non-blocking, so
    /// starting them does not wait), to fill the backlog. Closed with the listener.
    func fillBacklog(count: Int) {
        for _ in 0..<count {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            address.sin_port = UInt16(port).bigEndian
            _ = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            fillers.append(fd)
        }
    }

    /// Sends `bytes` to the peer.
    func send(_ bytes: [UInt8]) throws {
        let sent = bytes.withUnsafeBytes { Glibc.send(peerFD, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        guard sent == bytes.count else { throw SetupFailure.system("send") }
    }

    /// Closes the accepted connection, as a printer switched off would.
    func closePeer() {
        if peerFD >= 0 { close(peerFD) }
        peerFD = -1
    }

    private func wait(_ fd: Int32, for events: Int16, within limit: Duration) -> Bool {
        var fds = [pollfd(fd: fd, events: events, revents: 0)]
        let milliseconds = max(0, limit.components.seconds * 1000 + limit.components.attoseconds / 1_000_000_000_000_000)
        return poll(&fds, 1, Int32(clamping: milliseconds)) > 0
    }
}
