import CAvahi
@testable import Discovery

/// A DNS-SD service published by the test process itself through the lab's
/// avahi-daemon, so that its TXT record can be changed in place: avahi-publish
/// can only withdraw a record and publish a new one.
///
/// Its simple poll is never iterated: every call here is a synchronous D-Bus
/// call, and the signals the daemon sends back wait unread until `stop()`.
final class TXTPublisher {
    private var poll: OpaquePointer?
    private var client: OpaquePointer?
    private var group: OpaquePointer?
    let name: String
    let type: String

    init(name: String, type: String = "_ipp._tcp", port: UInt16, txt: [String]) throws {
        self.name = name
        self.type = type
        poll = avahi_simple_poll_new()
        var error: Int32 = 0
        client = avahi_client_new(avahi_simple_poll_get(poll), AvahiClientFlags(rawValue: 0),
                                  { _, _, _ in }, nil, &error)
        guard let client else { stop(); throw DiscoveryError(avahiCode: error, operation: "connecting") }
        group = avahi_entry_group_new(client, { _, _, _ in }, nil)
        guard let group else { throw failure("creating an entry group") }
        let list = Self.stringList(txt)
        defer { avahi_string_list_free(list) }
        let added = withNameAndType { name, type in
            avahi_entry_group_add_service_strlst(group, AvahiIfIndex(AVAHI_IF_UNSPEC), AvahiProtocol(AVAHI_PROTO_UNSPEC),
                                                 AvahiPublishFlags(rawValue: 0), name, type, nil, nil, port, list)
        }
        guard added == 0 else { throw failure("adding \(name)") }
        guard avahi_entry_group_commit(group) == 0 else { throw failure("committing \(name)") }
    }

    /// Replaces the TXT record of the published service.
    func update(txt: [String]) throws {
        let list = Self.stringList(txt)
        defer { avahi_string_list_free(list) }
        let result = withNameAndType { name, type in
            avahi_entry_group_update_service_txt_strlst(group, AvahiIfIndex(AVAHI_IF_UNSPEC),
                                                        AvahiProtocol(AVAHI_PROTO_UNSPEC),
                                                        AvahiPublishFlags(rawValue: 0), name, type, nil, list)
        }
        guard result == 0 else { throw failure("updating the TXT of \(name)") }
    }

    /// Withdraws the service and frees everything.
    func stop() {
        if let group { avahi_entry_group_free(group) }
        if let client { avahi_client_free(client) }
        if let poll { avahi_simple_poll_free(poll) }
        group = nil; client = nil; poll = nil
    }

    deinit { stop() }

    /// Calls `body` with the service's name and type as C strings.
    private func withNameAndType<T>(_ body: (UnsafePointer<CChar>, UnsafePointer<CChar>) -> T) -> T {
        name.withCString { name in type.withCString { type in body(name, type) } }
    }

    private func failure(_ operation: String) -> DiscoveryError {
        let error = DiscoveryError(avahiCode: client.map(avahi_client_errno) ?? -1, operation: operation)
        stop()
        return error
    }

    /// An Avahi string list that goes on the wire in the order given. The list
    /// itself ends up reversed (avahi_string_list_add prepends), and Avahi
    /// reverses it again when it writes the record, as avahi-publish relies on.
    private static func stringList(_ txt: [String]) -> UnsafeMutablePointer<AvahiStringList>? {
        var list: UnsafeMutablePointer<AvahiStringList>?
        for item in txt { list = avahi_string_list_add(list, item) }
        return list
    }
}
