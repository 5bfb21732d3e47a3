import Foundation
import Glibc
import Synchronization

/// One address a host name resolved to, as bytes (no pointer into
/// getaddrinfo's list survives the lookup).
struct ResolvedAddress: Sendable {
    let family: Int32
    let storage: [UInt8]

    /// Calls `body` with the address as the sockaddr connect(2) takes.
    func withSockaddr<T>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> T) -> T {
        storage.withUnsafeBytes { raw in
            body(raw.baseAddress!.assumingMemoryBound(to: sockaddr.self), socklen_t(storage.count))
        }
    }
}

/// Host names to addresses with a deadline. getaddrinfo has none of its
/// own (the resolver's retries can take 30 s and more), so a name is looked
/// up on a thread of its own and the caller stops waiting at the deadline;
/// a late answer is dropped. Numeric addresses never wait.
enum HostLookup {
    static func resolve(host: String, port: Int, uri: RawPrinterURI,
                        deadline: ContinuousClock.Instant) throws(LinkError) -> [ResolvedAddress] {
        let numeric = host.contains(":") || host.allSatisfy { $0.isNumber || $0 == "." }
        if numeric { return try answer(lookUp(host, port: port, numeric: true), host: host, uri: uri) }

        let start = ContinuousClock.now
        let outcome = Mutex<Result<[ResolvedAddress], LookupFailure>?>(nil)
        let answered = DispatchSemaphore(value: 0)
        let thread = Thread {
            let result = lookUp(host, port: port, numeric: false)
            outcome.withLock { $0 = result }
            answered.signal()
        }
        thread.name = "KioskPrint lookup \(host)"
        thread.start()
        let left = deadline - .now
        let wait = max(0, Double(left.components.seconds) + Double(left.components.attoseconds) / 1e18)
        guard answered.wait(timeout: .now() + wait) == .success, let result = outcome.withLock({ $0 }) else {
            throw LinkError(uri: uri, reason: .lookupTimedOut(host: host, seconds: deadline.seconds(since: start)))
        }
        return try answer(result, host: host, uri: uri)
    }

    struct LookupFailure: Error {
        let code: Int32
        let systemErrno: Int32
    }

    private static func answer(_ result: Result<[ResolvedAddress], LookupFailure>, host: String,
                               uri: RawPrinterURI) throws(LinkError) -> [ResolvedAddress] {
        switch result {
        case .success(let addresses) where !addresses.isEmpty:
            return addresses
        case .success:
            throw LinkError(uri: uri, reason: .hostNotFound(host: host, detail: "no address"))
        case .failure(let failure):
            let detail = failure.code == EAI_SYSTEM
                ? String(cString: strerror(failure.systemErrno)) : String(cString: gai_strerror(failure.code))
            throw LinkError(uri: uri, reason: .hostNotFound(host: host, detail: detail))
        }
    }

    /// getaddrinfo for TCP; an IPv6 zone (`fe80::1%eth0`) is read by it too.
    private static func lookUp(_ host: String, port: Int, numeric: Bool) -> Result<[ResolvedAddress], LookupFailure> {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_NUMERICSERV | (numeric ? AI_NUMERICHOST : 0)
        var list: UnsafeMutablePointer<addrinfo>?
        let code = getaddrinfo(host, String(port), &hints, &list)
        guard code == 0 else { return .failure(LookupFailure(code: code, systemErrno: errno)) }
        defer { freeaddrinfo(list) }
        var addresses: [ResolvedAddress] = []
        var entry = list
        while let info = entry?.pointee {
            if let address = info.ai_addr {
                let bytes = UnsafeRawBufferPointer(start: address, count: Int(info.ai_addrlen))
                addresses.append(ResolvedAddress(family: info.ai_family, storage: Array(bytes)))
            }
            entry = info.ai_next
        }
        return .success(addresses)
    }
}
