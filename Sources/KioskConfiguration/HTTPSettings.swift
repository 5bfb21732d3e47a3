/// `[http]`: the local HTTP API that point-of-sale applications use (see
/// the README's "HTTP API"). On by default, on loopback and a Unix socket;
/// an address other machines can reach is served only with TLS (a
/// certificate and key file), never in the clear.
public struct HTTPSettings: Sendable, Equatable {
    /// Where the API listens on TCP, or nil for no TCP listener (`listen = "off"`).
    public var listen: ListenAddress?
    /// The Unix socket's path; nil for the default beside the database
    /// (`api.sock`), "off" in the file for none.
    public var socket: String?
    public var socketOff = false
    /// Browser origins (`https://pos.example.com`) allowed to call the API;
    /// requests from every other origin are refused. Requests without an
    /// Origin (curl, a native POS) are not affected.
    public var allowedOrigins: [String] = []
    /// The largest request body taken, in bytes.
    public var maxBody: Int64 = HTTPSettings.defaultMaxBody
    /// Requests a second each token may send (twice that in a burst).
    public var rateLimit = 50
    /// PEM files for HTTPS on the TCP address; both or neither.
    public var tlsCertificate: String?
    public var tlsKey: String?

    public static let defaultListen = ListenAddress(host: "127.0.0.1", port: 9180)
    /// 20 MB: the largest PDF or image a job may be.
    public static let defaultMaxBody: Int64 = 20 * 1_048_576

    public init(listen: ListenAddress? = HTTPSettings.defaultListen) {
        self.listen = listen
    }

    /// Whether the API serves anything at all.
    public var isEnabled: Bool { listen != nil || !socketOff }
}

/// A TCP address to listen on: a loopback host and a port.
public struct ListenAddress: Sendable, Equatable, CustomStringConvertible {
    public var host: String
    public var port: Int

    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    /// The hosts that only this machine can reach.
    public static let loopbackHosts: Set<String> = ["127.0.0.1", "::1", "localhost"]

    /// Whether only this machine can reach it.
    public var isLoopback: Bool { Self.loopbackHosts.contains(host) }

    /// Reads `HOST:PORT` (`[::1]:9180` for IPv6); nil with the reason otherwise.
    public static func parse(_ text: String) -> Result<ListenAddress, ListenAddressError> {
        let host: Substring, port: Substring
        if text.hasPrefix("["), let close = text.firstIndex(of: "]") {
            host = text[text.index(after: text.startIndex)..<close]
            let rest = text[text.index(after: close)...]
            guard rest.hasPrefix(":") else { return .failure(ListenAddressError("\"\(text)\" has no port; write it as \"[::1]:9180\".")) }
            port = rest.dropFirst()
        } else {
            let parts = text.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count == 2 else { return .failure(ListenAddressError("\"\(text)\" is not HOST:PORT; write it as \"127.0.0.1:9180\".")) }
            (host, port) = (parts[0], parts[1])
        }
        guard let number = Int(port), (0...65_535).contains(number) else {
            return .failure(ListenAddressError("\"\(port)\" in \"\(text)\" is not a port number (0 to 65535)."))
        }
        return .success(ListenAddress(host: String(host), port: number))
    }

    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}

/// Why a `listen` address was refused, in a sentence for the configuration check.
public struct ListenAddressError: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}

extension ListenAddressError {
    /// An address other machines reach, given without TLS files.
    static func needsTLS(_ address: ListenAddress) -> ListenAddressError {
        ListenAddressError("\"\(address.host)\" can be reached from other machines, and the API is served there only with TLS: "
            + "give tls-certificate and tls-key (PEM files) in [http], or listen on 127.0.0.1 or ::1 (or use the Unix socket).")
    }
}
