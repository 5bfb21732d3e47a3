/// The IP family a DNS-SD answer came over. IPv4 sorts first because it is
/// the one we prefer: an IPv4 literal in a URI works everywhere, while an
/// IPv6 link-local address needs a zone index that IPP clients often mishandle.
enum IPFamily: Int, Hashable, Sendable, Comparable {
    case ipv4 = 0
    case ipv6 = 1

    static func < (a: IPFamily, b: IPFamily) -> Bool { a.rawValue < b.rawValue }
}

/// One DNS-SD service instance as the browser reports it. Avahi reports the
/// same service once per interface and IP family it was seen on, so this is
/// the identity of one raw record, not of a printer.
struct ServiceKey: Hashable, Sendable, CustomStringConvertible {
    var interface: Int32
    var family: IPFamily
    var name: String
    var type: String
    var domain: String

    var description: String { "\(name).\(type).\(domain) on interface \(interface) \(family)" }
}
