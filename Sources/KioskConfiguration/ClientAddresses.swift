import Glibc

/// An IPv4 or IPv6 network a listener takes clients from: `192.168.1.0/24`,
/// `10.0.0.7` (one address), `fd00::/8`. An IPv4 client reaching an IPv6
/// socket (`::ffff:192.168.1.7`) is matched as the IPv4 address it is.
public struct ClientNetwork: Sendable, Equatable, CustomStringConvertible {
    /// The network's address bytes: 4 (IPv4) or 16 (IPv6).
    public let address: [UInt8]
    /// How many leading bits must match.
    public let prefixLength: Int
    public var description: String { "\(IPAddressText.text(address))/\(prefixLength)" }

    /// Reads `ADDRESS` or `ADDRESS/BITS`; the reason when it is neither.
    public static func parse(_ text: String) -> Result<ClientNetwork, ListenAddressError> {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let address = IPAddressText.bytes(String(parts[0])) else {
            return .failure(ListenAddressError("\"\(text)\" is not an address or a network: write one such as \"192.168.1.0/24\", "
                + "\"192.168.1.20\" or \"fd00::/8\"."))
        }
        let bits = address.count * 8
        guard parts.count == 2 else { return .success(ClientNetwork(address: address, prefixLength: bits)) }
        guard let length = Int(parts[1]), (0...bits).contains(length) else {
            return .failure(ListenAddressError("\"\(parts[1])\" in \"\(text)\" is not a prefix length (0 to \(bits))."))
        }
        return .success(ClientNetwork(address: address, prefixLength: length))
    }

    /// Whether a client at `address` may connect to a listener at `listen`:
    /// on loopback only this machine reaches it, and the list is not consulted;
    /// elsewhere the address must lie in one of `clients`.
    public static func admits(_ address: [UInt8], from clients: [ClientNetwork], listeningOn listen: ListenAddress) -> Bool {
        listen.isLoopback || clients.contains { $0.contains(address) }
    }

    /// Whether `client` (4 or 16 bytes) lies in this network.
    public func contains(_ client: [UInt8]) -> Bool {
        var client = client
        // An IPv4 client on a dual-stack socket arrives as ::ffff:a.b.c.d.
        if client.count == 16, address.count == 4, client.prefix(12) == [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF] {
            client = Array(client.suffix(4))
        }
        guard client.count == address.count else { return false }
        for bit in 0..<prefixLength where (client[bit / 8] ^ address[bit / 8]) & (0x80 >> UInt8(bit % 8)) != 0 { return false }
        return true
    }

}

/// IP addresses as text and as bytes (4 or 16, network order): what
/// subjectAltName holds, and what an allow-list compares.
public enum IPAddressText {
    /// An address's bytes (inet_pton); nil for anything that is not an IPv4 or IPv6 address.
    public static func bytes(_ text: String) -> [UInt8]? {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 { return withUnsafeBytes(of: v4) { Array($0) } }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, text, &v6) == 1 { return withUnsafeBytes(of: v6) { Array($0) } }
        return nil
    }

    /// The address as text (inet_ntop); dotted bytes when they are neither 4 nor 16.
    public static func text(_ bytes: [UInt8]) -> String {
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        let family = bytes.count == 4 ? AF_INET : AF_INET6
        guard bytes.count == 4 || bytes.count == 16,
              bytes.withUnsafeBytes({ inet_ntop(family, $0.baseAddress, &buffer, socklen_t(buffer.count)) }) != nil else {
            return bytes.map { String($0) }.joined(separator: ".")
        }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// A role's raw virtual printer (`raw-listen` in `[role.NAME]`): a TCP port
/// that takes ESC/POS or ZPL as a printer's port 9100 does, each
/// connection's bytes one job of the role.
public struct RawListenSettings: Sendable, Equatable {
    /// Where it listens.
    public var listen: ListenAddress
    /// Who may connect (`raw-clients`): required off loopback; on loopback
    /// only this machine can reach it, and the list is not consulted.
    public var clients: [ClientNetwork]
    /// A pause this long ends a job on a connection kept open (`raw-job-gap`).
    public var jobGap: Duration

    /// 2 s: longer than a POS pauses inside one receipt, short enough that a
    /// receipt on a kept connection prints without a noticeable wait.
    public static let defaultJobGap = Duration.seconds(2)

    public init(listen: ListenAddress, clients: [ClientNetwork] = [], jobGap: Duration = defaultJobGap) {
        self.listen = listen; self.clients = clients; self.jobGap = jobGap
    }

    /// Whether a client at `address` (4 or 16 bytes) may connect.
    public func admits(_ address: [UInt8]) -> Bool {
        ClientNetwork.admits(address, from: clients, listeningOn: listen)
    }
}

/// `[epos]` and `[webprnt]`: who may print through the roles' ePOS-Print
/// endpoint (`epos = true` in `[role.NAME]`, at `/cgi-bin/epos/service.cgi`)
/// or WebPRNT endpoint (`webprnt = true`, at `/StarWebPRNT/SendMessage`),
/// both on the `[ipp]` listener. Epson's and Star's clients send no
/// credentials and cannot add a header, so the gate is the client's address
/// and, for a web page, its origin; a token in the query string where an
/// administrator wants one.
public struct PosClientSettings: Sendable, Equatable {
    /// Who may connect off loopback: required when `[ipp] listen` is reachable from other machines.
    public var clients: [ClientNetwork] = []
    /// The web pages (`https://pos.example.com`) whose scripts may print; a
    /// request carrying another Origin is refused before its body is read.
    public var origins: [String] = []
    /// Ask for `?token=SECRET` (a token with the print scope) on every request.
    public var requireToken = false

    public init() {}

    /// Whether a client at `address` may print, on a listener at `listen`.
    public func admits(_ address: [UInt8], listeningOn listen: ListenAddress) -> Bool {
        ClientNetwork.admits(address, from: clients, listeningOn: listen)
    }
}
