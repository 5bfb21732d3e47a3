/// One DNS-SD service this box announces: a role printer as `_ipp._tcp`
/// (with its subtypes) or `_ipps._tcp`, its port and its TXT record.
public struct ServiceAnnouncement: Sendable, Hashable {
    /// The instance name people see in a printer list, e.g. "receipt @ till-3".
    public var name: String
    /// `_ipp._tcp`, `_ipps._tcp`.
    public var type: String
    /// Subtypes under the type, e.g. `_universal` (what iOS browses) and `_print`.
    public var subtypes: [String]
    public var port: Int
    /// The TXT record's `key=value` pairs, in order.
    public var txt: [(key: String, value: String)]
    /// Announced on the loopback interface only: a service listening on 127.0.0.1 is
    /// of use to this box's own clients (CUPS, ippfind), and to nobody on the network.
    public var loopbackOnly: Bool

    public init(name: String, type: String, subtypes: [String] = [], port: Int, txt: [(key: String, value: String)],
                loopbackOnly: Bool = false) {
        self.name = name; self.type = type; self.subtypes = subtypes; self.port = port; self.txt = txt
        self.loopbackOnly = loopbackOnly
    }

    public static func == (lhs: ServiceAnnouncement, rhs: ServiceAnnouncement) -> Bool {
        lhs.name == rhs.name && lhs.type == rhs.type && lhs.subtypes == rhs.subtypes && lhs.port == rhs.port
            && lhs.loopbackOnly == rhs.loopbackOnly
            && lhs.txt.map { "\($0.key)=\($0.value)" } == rhs.txt.map { "\($0.key)=\($0.value)" }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(name); hasher.combine(type); hasher.combine(port)
    }
}
