import Glibc

/// A raw TCP printer (`socket://HOST:9100`): an ESC/POS receipt printer's
/// or a Zebra's network port. Bytes go out unbuffered (TCP_NODELAY), so a
/// short status question is not held back waiting for more.
public final class TCPLink: PrinterLink {
    public let uri: RawPrinterURI
    private let descriptor: PollingDescriptor

    /// Connects to `host:port` by `deadline`, trying each address the name
    /// resolves to in turn. Throws `.hostNotFound`, `.lookupTimedOut`,
    /// `.refused`, `.unreachable` or `.connectTimedOut`, naming the URI.
    public static func connect(host: String, port: Int, deadline: ContinuousClock.Instant) throws(LinkError) -> TCPLink {
        let uri = RawPrinterURI.socket(host: host, port: port)
        let start = ContinuousClock.now
        var lastFailure = LinkError.Reason.connectTimedOut(seconds: deadline.seconds(since: start))
        for address in try HostLookup.resolve(host: host, port: port, uri: uri, deadline: deadline) {
            switch attempt(address, uri: uri, deadline: deadline, start: start) {
            case .success(let descriptor):
                return TCPLink(uri: uri, descriptor: descriptor)
            case .failure(let failure):
                lastFailure = failure.reason
                if case .connectTimedOut = failure.reason { throw failure }  // no time left for another address
            }
        }
        throw LinkError(uri: uri, reason: lastFailure)
    }

    private init(uri: RawPrinterURI, descriptor: PollingDescriptor) {
        self.uri = uri
        self.descriptor = descriptor
    }

    public func write(_ bytes: [UInt8], stallWindow: Duration) throws(LinkError) {
        try descriptor.write(bytes, stallWindow: stallWindow)
    }

    public func unsentBytes() -> Int? { descriptor.unsentBytes() }

    public func read(atMost count: Int, deadline: ContinuousClock.Instant) throws(LinkError) -> [UInt8] {
        try descriptor.read(atMost: count, deadline: deadline)
    }

    public func close() { descriptor.close() }

    /// A non-blocking connect to one address, waited for in poll(2).
    private static func attempt(_ address: ResolvedAddress, uri: RawPrinterURI, deadline: ContinuousClock.Instant,
                                start: ContinuousClock.Instant) -> Result<PollingDescriptor, LinkError> {
        let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        let fd = socket(address.family, type, 0)
        guard fd >= 0 else { return .failure(LinkError(uri: uri, reason: .systemError(operation: "socket", errno: errno))) }
        let failure = { (reason: LinkError.Reason) -> Result<PollingDescriptor, LinkError> in
            Glibc.close(fd)
            return .failure(LinkError(uri: uri, reason: reason))
        }
        setOptions(fd)
        if address.withSockaddr({ Glibc.connect(fd, $0, $1) }) != 0 {
            guard errno == EINPROGRESS || errno == EINTR else { return failure(connectFailure(errno)) }
            while true {
                var pending = [pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)]
                let ready = poll(&pending, 1, deadline.pollTimeout)
                if ready < 0 && errno == EINTR { continue }
                if ready < 0 { return failure(.systemError(operation: "waiting to connect (poll)", errno: errno)) }
                if ready > 0 { break }
                if ContinuousClock.now >= deadline { return failure(.connectTimedOut(seconds: deadline.seconds(since: start))) }
            }
            var code: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            guard getsockopt(fd, SOL_SOCKET, SO_ERROR, &code, &length) == 0 else {
                return failure(.systemError(operation: "getsockopt(SO_ERROR)", errno: errno))
            }
            if code != 0 { return failure(connectFailure(code)) }
        }
        do {
            return .success(try PollingDescriptor(fd: fd, kind: .socket, uri: uri))
        } catch {
            return .failure(error)
        }
    }

    /// No Nagle delay; keep-alive probes after 10 s of silence, every 5 s,
    /// 3 of them, so a printer switched off while idle is noticed in about
    /// 25 s instead of Linux's default two hours.
    private static func setOptions(_ fd: Int32) {
        var on: Int32 = 1, idle: Int32 = 10, interval: Int32 = 5, count: Int32 = 3
        let size = socklen_t(MemoryLayout<Int32>.size)
        _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &on, size)
        _ = setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &on, size)
        _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_KEEPIDLE, &idle, size)
        _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_KEEPINTVL, &interval, size)
        _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_KEEPCNT, &count, size)
    }

    private static func connectFailure(_ code: Int32) -> LinkError.Reason {
        switch code {
        case ECONNREFUSED: .refused
        default: .unreachable(errno: code)  // ETIMEDOUT too: the kernel gave up its own retries
        }
    }
}
