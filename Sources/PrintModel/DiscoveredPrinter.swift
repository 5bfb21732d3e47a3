import Foundation

/// A printer as DNS-SD announces it: what the picker can show before it has
/// contacted the printer. Built from an `_ipp._tcp`, `_ipps._tcp` or
/// `_pdl-datastream._tcp` (raw port 9100) service and its TXT record.
public struct DiscoveredPrinter: Hashable, Codable, Sendable, Identifiable {
    /// The DNS-SD service instance name, e.g. `Front Counter Receipt`.
    public var serviceName: String
    /// True when the printer was found as `_ipps._tcp` (IPP over TLS).
    public var secure: Bool
    /// True when the printer was found as `_pdl-datastream._tcp`: a raw socket
    /// that takes the printer's own language and answers no IPP.
    public var raw: Bool
    /// The host name the service resolved to, e.g. `tm-m30.local`.
    public var hostName: String
    /// The address the host name resolved to, e.g. `192.168.1.40`.
    public var address: String
    public var port: Int
    /// The network interface index the service was seen on.
    public var interfaceIndex: Int32
    public var txt: TXTRecord

    public init(serviceName: String, secure: Bool, raw: Bool = false, hostName: String, address: String, port: Int,
                interfaceIndex: Int32 = 0, txt: TXTRecord) {
        self.serviceName = serviceName; self.secure = secure; self.raw = raw; self.hostName = hostName
        self.address = address; self.port = port; self.interfaceIndex = interfaceIndex; self.txt = txt
    }

    /// One printer announced on both `_ipp` and `_ipps` is one printer: the
    /// `UUID` key says so; without it, the service name does.
    public var id: String { txt.uuid.map { "uuid:" + $0.lowercased() } ?? "name:" + serviceName }

    /// The URI to contact and print to, built from the resolved address so that
    /// it works without mDNS name resolution (nss-mdns) on the kiosk box:
    /// `socket://ADDRESS:PORT` for a raw service (its TXT `rp` means nothing there).
    public var uri: String {
        let host = address.contains(":") ? "[\(address)]" : address
        if raw { return "socket://\(host):\(port)" }
        let scheme = secure ? "ipps" : "ipp"
        let path = txt.resourcePath.isEmpty ? "ipp/print" : txt.resourcePath
        return "\(scheme)://\(host):\(port)/\(path)"
    }
}

/// The keys of an IPP Everywhere / AirPrint TXT record that KioskPrint uses.
/// Keys are case-insensitive; values are kept as the printer sent them.
public struct TXTRecord: Hashable, Codable, Sendable {
    /// Every key (lowercased) and its value, as announced.
    public var entries: [String: String]

    public init(entries: [String: String] = [:]) {
        var lowered: [String: String] = [:]
        for (key, value) in entries { lowered[key.lowercased()] = value }
        self.entries = lowered
    }

    /// Parses `key=value` strings as they come off the wire. A string without
    /// `=` is a boolean key that is present (RFC 6763 §6.4).
    public init(strings: [String]) {
        var entries: [String: String] = [:]
        for item in strings {
            if let eq = item.firstIndex(of: "=") {
                // A string that starts with `=` has no key: ignored (RFC 6763 §6.4).
                guard eq != item.startIndex else { continue }
                let key = item[..<eq].lowercased()
                // The first occurrence of a key wins (RFC 6763 §6.4).
                if entries[key] == nil { entries[key] = String(item[item.index(after: eq)...]) }
            } else if !item.isEmpty, entries[item.lowercased()] == nil {
                entries[item.lowercased()] = ""
            }
        }
        self.entries = entries
    }

    public subscript(key: String) -> String? { entries[key.lowercased()] }

    /// `ty`: make and model.
    public var makeAndModel: String? { nonEmpty("ty") }
    /// `note`: where the printer stands.
    public var location: String? { nonEmpty("note") }
    /// `rp`: the resource path, e.g. `ipp/print`.
    public var resourcePath: String { (self["rp"] ?? "").trimmingLeadingSlashes }
    /// `pdl`: the document formats.
    public var documentFormats: [String] { list("pdl") }
    /// `kind`: the job kinds the printer is made for.
    public var kinds: Set<JobKind> { JobKind.parseList(self["kind"] ?? "") }
    /// `UUID`, without a `urn:uuid:` prefix.
    public var uuid: String? {
        guard let raw = nonEmpty("uuid") else { return nil }
        let bare = raw.lowercased().hasPrefix("urn:uuid:") ? String(raw.dropFirst(9)) : raw
        return bare.isEmpty ? nil : bare  // an empty UUID must not merge unrelated printers
    }
    /// `Color=T`.
    public var color: Bool? { flag("color") }
    /// `Duplex=T`.
    public var duplex: Bool? { flag("duplex") }
    /// `URF`: the Apple raster capabilities, e.g. `W8,SRGB24,RS300`.
    public var urf: [String] { list("urf") }
    /// `TLS`: the highest TLS version the printer offers, e.g. `1.2`.
    public var tls: String? { nonEmpty("tls") }
    /// `product`: the model in parentheses, as Bonjour printing records give
    /// it (`(TM-T88VI)`), without them.
    public var product: String? {
        guard let raw = nonEmpty("product") else { return nil }
        let bare = raw.hasPrefix("(") && raw.hasSuffix(")") ? String(raw.dropFirst().dropLast()) : raw
        return bare.isEmpty ? nil : bare
    }
    /// `adminurl`: the printer's configuration page.
    public var adminURL: String? { nonEmpty("adminurl") }

    private func nonEmpty(_ key: String) -> String? {
        guard let value = self[key], !value.isEmpty else { return nil }
        return value
    }
    private func list(_ key: String) -> [String] {
        (self[key] ?? "").split(separator: ",").map(String.init).filter { !$0.isEmpty }
    }
    private func flag(_ key: String) -> Bool? {
        guard let value = self[key]?.uppercased() else { return nil }
        // A key present without a value is true (RFC 6763 §6.4).
        return value.isEmpty || value == "T" || value == "TRUE" || value == "1"
    }
}

extension String {
    var trimmingLeadingSlashes: String { String(drop(while: { $0 == "/" })) }
}
