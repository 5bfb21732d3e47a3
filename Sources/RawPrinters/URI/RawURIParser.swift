import Glibc

/// Reads the text of a raw printer's address into a `RawPrinterURI`; every
/// refusal names the text and shows a good address of its scheme.
struct RawURIParser {
    let original: String
    private let text: Substring

    init(_ original: String) {
        self.original = original
        text = Substring(original.trimmingWhitespace())
    }

    func parse() throws(RawURIError) -> RawPrinterURI {
        guard let colon = text.firstIndex(of: ":"), colon != text.startIndex else {
            throw refusal("it has no scheme (socket://, usb:// or serial://) in front", scheme: nil)
        }
        let schemeText = text[..<colon].lowercased()
        let rest = text[text.index(after: colon)...]
        // `printer.local:9100` is a host and port, not a scheme and its rest.
        if !rest.isEmpty, rest.allSatisfy({ $0.isASCII && $0.isNumber }) {
            throw refusal("it has no scheme (socket://, usb:// or serial://) in front", scheme: nil)
        }
        switch schemeText {
        case "socket": return try parseSocket(rest)
        case "usb": return try parseUSB(rest)
        case "serial": return try parseSerial(rest)
        case "ipp", "ipps", "http", "https":
            throw refusal("\(schemeText):// is an IPP printer's address, not a raw one; save it as an IPP printer", scheme: nil)
        default:
            throw refusal("the scheme '\(schemeText)' is not socket, usb or serial", scheme: nil)
        }
    }

    func refusal(_ problem: String, scheme: RawPrinterURI.Scheme?) -> RawURIError {
        RawURIError(uri: original, problem: problem, scheme: scheme)
    }

    // MARK: socket://HOST[:PORT]

    private func parseSocket(_ rest: Substring) throws(RawURIError) -> RawPrinterURI {
        guard rest.hasPrefix("//") else { throw refusal("socket: must be followed by //", scheme: .socket) }
        let afterSlashes = rest.dropFirst(2)
        let authorityEnd = afterSlashes.firstIndex { "/?#".contains($0) } ?? afterSlashes.endIndex
        let authority = afterSlashes[..<authorityEnd]
        let tail = afterSlashes[authorityEnd...]
        if !tail.isEmpty && tail != "/" {
            throw refusal("socket:// takes no path or options, and '\(tail)' follows the address", scheme: .socket)
        }
        if authority.contains("@") {
            throw refusal("a raw socket has no user name, so '@' cannot appear in it", scheme: .socket)
        }
        let (host, portText) = try splitHostAndPort(authority)
        let port: Int
        if let portText {
            guard !portText.isEmpty else { throw refusal("the port after ':' is missing", scheme: .socket) }
            guard portText.allSatisfy(\.isASCII), let number = Int(portText), portText.allSatisfy(\.isNumber) else {
                throw refusal("the port '\(portText)' is not a number", scheme: .socket)
            }
            guard (1...65535).contains(number) else {
                throw refusal("the port \(number) is outside 1 to 65535", scheme: .socket)
            }
            port = number
        } else {
            port = RawPrinterURI.defaultPort
        }
        return .socket(host: host, port: port)
    }

    /// The host (checked, lowercased, without brackets) and the port's text if a `:` follows it.
    private func splitHostAndPort(_ authority: Substring) throws(RawURIError) -> (String, Substring?) {
        guard !authority.isEmpty else { throw refusal("the host is missing", scheme: .socket) }
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else {
                throw refusal("the IPv6 address has no closing ']'", scheme: .socket)
            }
            let inside = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            guard after.isEmpty || after.hasPrefix(":") else {
                throw refusal("'\(after)' follows the IPv6 address where only :PORT may", scheme: .socket)
            }
            return (try ipv6Host(inside), after.isEmpty ? nil : after.dropFirst())
        }
        let colons = authority.filter { $0 == ":" }.count
        guard colons <= 1 else {
            throw refusal("an IPv6 address must be written in brackets, as [\(authority)]", scheme: .socket)
        }
        let hostText = authority.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)[0]
        let portText = colons == 1 ? authority[authority.index(after: authority.firstIndex(of: ":")!)...] : nil
        return (try nameOrIPv4Host(hostText), portText)
    }

    private func ipv6Host(_ inside: Substring) throws(RawURIError) -> String {
        // RFC 6874 writes the zone as %25eth0; a bare % is read too.
        var address = inside, zone: Substring?
        if let percent = inside.firstIndex(of: "%") {
            address = inside[..<percent]
            let rawZone = inside[inside.index(after: percent)...]
            zone = rawZone.hasPrefix("25") && rawZone.count > 2 ? rawZone.dropFirst(2) : rawZone
            guard let zone, !zone.isEmpty, zone.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) })
            else { throw refusal("the IPv6 zone after '%' is not an interface name", scheme: .socket) }
        }
        var parsed = in6_addr()
        guard inet_pton(AF_INET6, String(address), &parsed) == 1 else {
            throw refusal("'\(address)' is not an IPv6 address", scheme: .socket)
        }
        return address.lowercased() + (zone.map { "%" + $0 } ?? "")
    }

    private func nameOrIPv4Host(_ host: Substring) throws(RawURIError) -> String {
        guard !host.isEmpty else { throw refusal("the host is missing", scheme: .socket) }
        if host.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }) {
            var parsed = in_addr()
            guard inet_pton(AF_INET, String(host), &parsed) == 1 else {
                throw refusal("'\(host)' is not an IPv4 address (four numbers 0 to 255, separated by dots)", scheme: .socket)
            }
            return String(host)
        }
        let labels = host.split(separator: ".", omittingEmptySubsequences: false)
        let goodLabels = labels.allSatisfy { label in
            (1...63).contains(label.count) && !label.hasPrefix("-") && !label.hasSuffix("-")
                && label.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }
        }
        guard goodLabels, host.count <= 253 else {
            throw refusal("'\(host)' is not a host name (letters, digits and '-', in parts separated by dots)",
                          scheme: .socket)
        }
        return host.lowercased()
    }
}
