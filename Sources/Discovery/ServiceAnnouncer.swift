import CAvahi
import Foundation
import Synchronization
import Timers

/// Announces services through avahi-daemon for as long as it runs, on a
/// thread of its own (avahi-client is not thread-safe), in one entry group.
/// It outlives the daemon: with `AVAHI_CLIENT_NO_FAIL` the client waits for
/// avahi-daemon to come (back) and announces again. A name another host
/// already uses gets Avahi's alternative ("receipt @ till-3 #2").
///
/// `stop()` withdraws the services and frees everything.
public final class ServiceAnnouncer: Sendable {
    private let wake: WakePipe
    private let mailbox: AnnouncerMailbox

    /// Starts announcing `services`; `report` hears what happened, in words
    /// for the agent's log (announced, renamed, or why not).
    public init?(_ services: [ServiceAnnouncement], report: @escaping @Sendable (String) -> Void) {
        guard let wake = WakePipe() else { return nil }
        self.wake = wake
        let mailbox = AnnouncerMailbox()
        self.mailbox = mailbox
        let thread = Thread { AnnouncerSession(services: services, wake: wake, mailbox: mailbox, report: report).run() }
        thread.name = "kioskprint-announce"
        thread.start()
    }

    /// Announces `services` instead: a service whose name, type, port and
    /// subtypes stay has only its TXT record updated in place (clients see
    /// the new keys, not the printer leaving and coming back); any other
    /// change withdraws the group and announces it again.
    public func update(_ services: [ServiceAnnouncement]) { mailbox.post(services) }

    /// Withdraws the services (the entry group is freed with the client).
    public func stop() { wake.wake() }

    deinit { wake.wake() }
}

/// The next services for the announcer's thread, and the poll loop to wake
/// for them (`avahi_simple_poll_wakeup` is Avahi's call for other threads).
private final class AnnouncerMailbox: Sendable {
    private struct Box {
        /// The poll loop's address while it runs; nil before and after.
        var poll: Int?
        var next: [ServiceAnnouncement]?
    }
    private let box = Mutex(Box())

    func post(_ services: [ServiceAnnouncement]) {
        box.withLock { box in
            box.next = services
            if let address = box.poll { avahi_simple_poll_wakeup(OpaquePointer(bitPattern: address)) }
        }
    }

    /// Set while the loop runs, cleared (under the lock) before it is freed.
    func running(_ poll: OpaquePointer?) { box.withLock { $0.poll = poll.map { Int(bitPattern: $0) } } }

    func take() -> [ServiceAnnouncement]? { box.withLock { box in defer { box.next = nil }; return box.next } }
}

/// The announcer's Avahi objects, made, used and freed on its thread.
private final class AnnouncerSession {
    var services: [ServiceAnnouncement]
    let wake: WakePipe
    let mailbox: AnnouncerMailbox
    let report: @Sendable (String) -> Void
    var poll: OpaquePointer?
    var client: OpaquePointer?
    var group: OpaquePointer?
    var wakeWatch: OpaquePointer?
    var stopping = false
    /// The names in use, renamed on a collision.
    var names: [String]

    init(services: [ServiceAnnouncement], wake: WakePipe, mailbox: AnnouncerMailbox, report: @escaping @Sendable (String) -> Void) {
        self.services = services; self.wake = wake; self.mailbox = mailbox; self.report = report
        names = services.map(\.name)
    }

    func run() {
        guard let poll = avahi_simple_poll_new() else { return report("DNS-SD: Avahi's poll loop could not be made; nothing is announced.") }
        self.poll = poll
        let api = avahi_simple_poll_get(poll)!
        let retained = Unmanaged.passRetained(self)
        defer { retained.release() }
        wakeWatch = api.pointee.watch_new(api, wake.readEnd, AVAHI_WATCH_IN, { _, _, _, userdata in
            Unmanaged<AnnouncerSession>.fromOpaque(userdata!).takeUnretainedValue().stopping = true
        }, retained.toOpaque())
        var error: Int32 = 0
        // NO_FAIL: no avahi-daemon yet (or a restart) is waited for, not fatal.
        client = avahi_client_new(api, AVAHI_CLIENT_NO_FAIL, { client, state, userdata in
            Unmanaged<AnnouncerSession>.fromOpaque(userdata!).takeUnretainedValue().clientChanged(client, state)
        }, retained.toOpaque(), &error)
        if client == nil {
            report("DNS-SD: avahi-daemon could not be reached (\(String(cString: avahi_strerror(error)))); the role printers are not announced.")
        }
        mailbox.running(poll)
        while !stopping && client != nil {
            if avahi_simple_poll_iterate(poll, -1) != 0 { break }
            if let next = mailbox.take() { replace(with: next) }
        }
        mailbox.running(nil)
        if let group { avahi_entry_group_free(group) }
        if let client { avahi_client_free(client) }
        if let wakeWatch { api.pointee.watch_free(wakeWatch) }
        avahi_simple_poll_free(poll)
    }

    func clientChanged(_ client: OpaquePointer?, _ state: AvahiClientState) {
        guard let client else { return }
        switch state {
        case AVAHI_CLIENT_S_RUNNING:
            publish(client)
        case AVAHI_CLIENT_S_COLLISION, AVAHI_CLIENT_S_REGISTERING:
            // The host's own name is being (re)registered: announce again once it runs.
            if let group { avahi_entry_group_reset(group) }
        case AVAHI_CLIENT_CONNECTING, AVAHI_CLIENT_FAILURE:
            // The daemon went away: with NO_FAIL the client waits for it; the group died with the link
            // and is made again once the client runs.
            if let group { avahi_entry_group_free(group) }
            group = nil
            if state == AVAHI_CLIENT_FAILURE {
                report("DNS-SD: avahi-daemon failed (\(String(cString: avahi_strerror(avahi_client_errno(client))))); the role printers are not announced.")
            }
        default:
            break
        }
    }

    func publish(_ client: OpaquePointer) {
        if group == nil {
            group = avahi_entry_group_new(client, { group, state, userdata in
                Unmanaged<AnnouncerSession>.fromOpaque(userdata!).takeUnretainedValue().groupChanged(group, state)
            }, Unmanaged.passUnretained(self).toOpaque())
        }
        guard let group else {
            return report("DNS-SD: no entry group (\(String(cString: avahi_strerror(avahi_client_errno(client))))); nothing is announced.")
        }
        guard avahi_entry_group_is_empty(group) != 0 else { return }
        for (index, service) in services.enumerated() {
            let code = add(service, named: names[index], to: group)
            guard code == 0 else {
                if code == Int32(AVAHI_ERR_COLLISION) { return rename(index, group) }
                return report("DNS-SD: \(service.type) \"\(names[index])\" could not be added: \(String(cString: avahi_strerror(code))).")
            }
        }
        let code = avahi_entry_group_commit(group)
        if code != 0 { report("DNS-SD: the announcement was not committed: \(String(cString: avahi_strerror(code))).") }
    }

    /// Takes `next` as the services: TXT records updated in place where only
    /// they changed, else the group withdrawn and announced again.
    func replace(with next: [ServiceAnnouncement]) {
        guard next != services else { return }
        let sameShape = next.count == services.count && zip(next, services).allSatisfy {
            $0.name == $1.name && $0.type == $1.type && $0.port == $1.port && $0.subtypes == $1.subtypes && $0.loopbackOnly == $1.loopbackOnly
        }
        services = next
        if !sameShape { names = services.map(\.name) }
        guard let group, avahi_entry_group_is_empty(group) == 0 else { return }  // announced with these once the client runs
        if sameShape {
            for (index, service) in services.enumerated() {
                let code = withTXT(service) { list in
                    avahi_entry_group_update_service_txt_strlst(group, interface(service), AvahiProtocol(AVAHI_PROTO_UNSPEC),
                                                                AvahiPublishFlags(rawValue: 0), names[index], service.type, nil, list)
                }
                if code != 0 { report("DNS-SD: the TXT record of \"\(names[index])\" was not updated: \(String(cString: avahi_strerror(code))).") }
            }
            report("DNS-SD: TXT records updated for " + names.map { "\"\($0)\"" }.joined(separator: ", "))
        } else {
            avahi_entry_group_reset(group)
            if let client { publish(client) }
        }
    }

    /// `body` with the service's TXT pairs as an Avahi string list, freed after.
    func withTXT(_ service: ServiceAnnouncement, _ body: (UnsafeMutablePointer<AvahiStringList>?) -> Int32) -> Int32 {
        var list: UnsafeMutablePointer<AvahiStringList>? = nil
        for pair in service.txt.reversed() {  // prepended: reversed keeps the order given
            list = avahi_string_list_add_pair(list, pair.key, pair.value)
        }
        defer { avahi_string_list_free(list) }
        return body(list)
    }

    func interface(_ service: ServiceAnnouncement) -> AvahiIfIndex {
        service.loopbackOnly ? AvahiIfIndex(if_nametoindex("lo")) : AvahiIfIndex(AVAHI_IF_UNSPEC)
    }

    /// Adds one service and its subtypes; 0 or Avahi's error code.
    func add(_ service: ServiceAnnouncement, named name: String, to group: OpaquePointer) -> Int32 {
        let interface = interface(service)
        let added = withTXT(service) { list in
            avahi_entry_group_add_service_strlst(group, interface, AvahiProtocol(AVAHI_PROTO_UNSPEC), AvahiPublishFlags(rawValue: 0),
                                                 name, service.type, nil, nil, UInt16(service.port), list)
        }
        guard added == 0 else { return added }
        for subtype in service.subtypes {
            let code = avahi_entry_group_add_service_subtype(group, interface, AvahiProtocol(AVAHI_PROTO_UNSPEC),
                                                            AvahiPublishFlags(rawValue: 0), name, service.type, nil,
                                                            "\(subtype)._sub.\(service.type)")
            guard code == 0 else { return code }
        }
        return 0
    }

    func groupChanged(_ group: OpaquePointer?, _ state: AvahiEntryGroupState) {
        switch state {
        case AVAHI_ENTRY_GROUP_ESTABLISHED:
            report("DNS-SD: announced " + zip(services, names).map { "\($0.type) \"\($1)\" port \($0.port)" }.joined(separator: ", "))
        case AVAHI_ENTRY_GROUP_COLLISION:
            if let group { rename(nil, group) }
        case AVAHI_ENTRY_GROUP_FAILURE:
            report("DNS-SD: the announcement failed: \(String(cString: avahi_strerror(avahi_client_errno(client))))")
        default:
            break
        }
    }

    /// Another host holds a name: take Avahi's alternative for it (or for all, when it does not say which) and announce again.
    func rename(_ index: Int?, _ group: OpaquePointer) {
        for position in names.indices where index == nil || index == position {
            if let next = avahi_alternative_service_name(names[position]) {
                report("DNS-SD: \"\(names[position])\" is taken on this network; announcing as \"\(String(cString: next))\".")
                names[position] = String(cString: next)
                avahi_free(next)
            }
        }
        avahi_entry_group_reset(group)
        if let client { publish(client) }
    }
}
