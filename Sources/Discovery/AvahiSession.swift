import CAvahi
import Glibc
import PrintModel
import Timers

typealias EventContinuation = AsyncThrowingStream<DiscoveryEvent, any Error>.Continuation

/// One live browse: the Avahi client, a browser per service type and a
/// resolver per service instance, all driven by one `AvahiSimplePoll`.
///
/// Every Avahi object is made, used and freed on the thread that calls
/// `run`, because avahi-client and its poll loop are not thread-safe. Nothing
/// of this class leaves that thread; events go out through the continuation,
/// and a stop request comes in through the `WakePipe`.
final class AvahiSession {
    private let serviceTypes: [String]
    private let continuation: EventContinuation
    private let wake: WakePipe

    private var poll: OpaquePointer?
    private var client: OpaquePointer?
    private var wakeWatch: OpaquePointer?
    /// The +1 retain that keeps `self` alive for the client and wake-watch
    /// callbacks; balanced in `tearDown` after those objects are freed.
    private var callbackRetain: Unmanaged<AvahiSession>?
    private var browsers: [BrowserContext] = []
    private var resolvers: [ServiceKey: ResolverContext] = [:]

    private var merger = PrinterMerger()
    private var settle: SettleTracker
    private var stopping = false
    private var failure: DiscoveryError?

    private init(serviceTypes: [String], continuation: EventContinuation, wake: WakePipe) {
        self.serviceTypes = serviceTypes
        self.continuation = continuation
        self.wake = wake
        self.settle = SettleTracker(serviceTypes: serviceTypes)
    }

    /// Browses until the wake pipe is closed or Avahi fails, then frees
    /// everything and finishes the stream. Blocks: call it on the poll thread.
    static func run(serviceTypes: [String], continuation: EventContinuation, wake: WakePipe) {
        let session = AvahiSession(serviceTypes: serviceTypes, continuation: continuation, wake: wake)
        session.start()
        session.loop()
        session.tearDown()
    }

    // MARK: - Life cycle

    private func start() {
        guard let poll = avahi_simple_poll_new() else {
            return fail(.avahi(operation: "creating its poll loop", code: Int32(AVAHI_ERR_NO_MEMORY),
                               message: String(cString: avahi_strerror(Int32(AVAHI_ERR_NO_MEMORY)))))
        }
        self.poll = poll
        let api = avahi_simple_poll_get(poll)!
        // Retained, not borrowed: the C side holds this pointer until the objects are freed.
        let retained = Unmanaged.passRetained(self)
        callbackRetain = retained

        wakeWatch = api.pointee.watch_new(api, wake.readEnd, AVAHI_WATCH_IN, { _, _, _, userdata in
            Unmanaged<AvahiSession>.fromOpaque(userdata!).takeUnretainedValue().wakeRequested()
        }, retained.toOpaque())
        // Without the watch a stop request would go unheard and the thread would never end.
        guard wakeWatch != nil else { return fail(.system(operation: "watch its wake-up pipe", errno: errno)) }

        // Avahi calls the state callback from inside avahi_client_new, before
        // `client` is assigned: the callback works only with what it is passed.
        var error: Int32 = 0
        client = avahi_client_new(api, AvahiClientFlags(rawValue: 0), { client, state, userdata in
            Unmanaged<AvahiSession>.fromOpaque(userdata!).takeUnretainedValue().clientStateChanged(client, state)
        }, retained.toOpaque(), &error)
        guard let client else {
            return fail(DiscoveryError(avahiCode: error, operation: "connecting to avahi-daemon"))
        }
        guard !stopping else { return }

        for type in serviceTypes {
            let context = BrowserContext(session: self, serviceType: type)
            // Unretained: `browsers` keeps the context alive until the browser is freed.
            let browser = type.withCString { typeName in
                // Every interface and both IP families: each sighting is its own
                // record, and the merger keeps the IPv4 one.
                avahi_service_browser_new(client, AvahiIfIndex(AVAHI_IF_UNSPEC), AvahiProtocol(AVAHI_PROTO_UNSPEC),
                                          typeName, nil, AvahiLookupFlags(rawValue: 0), browserCallback,
                                          Unmanaged.passUnretained(context).toOpaque())
            }
            guard let browser else {
                return fail(DiscoveryError(avahiCode: avahi_client_errno(client), operation: "browsing for \(type)"))
            }
            context.browser = browser
            browsers.append(context)
        }
        if settle.browsingStarted() { emit([.settled]) }
    }

    private func loop() {
        guard let poll else { return }
        while !stopping {
            // Blocks until Avahi has work or the wake pipe is closed; runs one callback.
            if avahi_simple_poll_iterate(poll, -1) != 0 {
                if !stopping { fail(.system(operation: "poll for Avahi events", errno: errno)) }
                break
            }
        }
    }

    private func tearDown() {
        // Children before the client, the client before the poll it uses.
        for context in resolvers.values { avahi_service_resolver_free(context.resolver) }
        resolvers.removeAll()
        for context in browsers { if let browser = context.browser { avahi_service_browser_free(browser) } }
        browsers.removeAll()
        if let client { avahi_client_free(client) }
        client = nil
        if let poll {
            if let wakeWatch { avahi_simple_poll_get(poll)!.pointee.watch_free(wakeWatch) }
            avahi_simple_poll_free(poll)
        }
        wakeWatch = nil
        poll = nil
        callbackRetain?.release()
        callbackRetain = nil
        // A no-op when the subscriber has already gone away.
        if let failure { continuation.finish(throwing: failure) } else { continuation.finish() }
    }

    private func fail(_ error: DiscoveryError) {
        if failure == nil { failure = error }
        stopping = true
    }

    private func emit(_ events: [DiscoveryEvent]) {
        for event in events { continuation.yield(event) }
    }

    // MARK: - Callbacks (all on the poll thread)

    private func wakeRequested() {
        stopping = true
    }

    private func clientStateChanged(_ client: OpaquePointer?, _ state: AvahiClientState) {
        // REGISTERING, RUNNING and COLLISION are the server's own host-name
        // states; browsing works in all of them. Only FAILURE concerns us.
        guard state == AVAHI_CLIENT_FAILURE else { return }
        fail(DiscoveryError(avahiCode: client.map(avahi_client_errno) ?? Int32(AVAHI_ERR_DISCONNECTED),
                            operation: "talking to avahi-daemon"))
    }

    fileprivate func browserEvent(_ context: BrowserContext, _ interface: AvahiIfIndex, _ proto: AvahiProtocol,
                                  _ event: AvahiBrowserEvent, _ name: UnsafePointer<CChar>?,
                                  _ type: UnsafePointer<CChar>?, _ domain: UnsafePointer<CChar>?) {
        switch event {
        case AVAHI_BROWSER_NEW:
            guard let key = ServiceKey(interface, proto, name, type, domain), resolvers[key] == nil else { return }
            startResolver(for: key)
        case AVAHI_BROWSER_REMOVE:
            guard let key = ServiceKey(interface, proto, name, type, domain) else { return }
            var settles = false
            if let context = resolvers.removeValue(forKey: key) {
                avahi_service_resolver_free(context.resolver)
                // A service gone before it resolved will never resolve: stop waiting for it.
                if !context.hasAnswered { settles = settle.resolverFinished(key) }
            }
            emit(merger.remove(key))
            if settles { emit([.settled]) }
        case AVAHI_BROWSER_ALL_FOR_NOW:
            if settle.browserSaidAllForNow(context.serviceType) { emit([.settled]) }
        case AVAHI_BROWSER_FAILURE:
            fail(DiscoveryError(avahiCode: client.map(avahi_client_errno) ?? Int32(AVAHI_ERR_FAILURE),
                                operation: "browsing for \(context.serviceType)"))
        default:
            // CACHE_EXHAUSTED: the local cache has been read out; the network may still answer.
            break
        }
    }

    // Lookup flags: none. AVAHI_LOOKUP_NO_TXT / NO_ADDRESS would drop what a
    // printer entry is made of, and USE_WIDE_AREA / USE_MULTICAST only narrow
    // where Avahi looks. Result flags are not used to filter either: a LOCAL
    // result is a printer shared by this very box (or the simulator), which
    // is as printable as any other, and OUR_OWN cannot occur because this
    // client publishes nothing.
    private func startResolver(for key: ServiceKey) {
        guard let client else { return }
        let context = ResolverContext(session: self, key: key)
        // Query over the family the browser saw the service on, and ask for an
        // address of that same family: an IPv4 sighting resolves to an IPv4
        // address (UNSPEC would silently mean IPv6 here).
        let proto = key.family == .ipv4 ? AvahiProtocol(AVAHI_PROTO_INET) : AvahiProtocol(AVAHI_PROTO_INET6)
        let resolver = key.name.withCString { name in
            key.type.withCString { type in
                key.domain.withCString { domain in
                    avahi_service_resolver_new(client, key.interface, proto, name, type, domain, proto,
                                               AvahiLookupFlags(rawValue: 0), resolverCallback,
                                               Unmanaged.passUnretained(context).toOpaque())
                }
            }
        }
        guard let resolver else {
            let code = avahi_client_errno(client)
            // The daemon caps objects per client (objects-per-client-max): on a
            // huge network, leave the excess services out rather than stop browsing.
            if code != Int32(AVAHI_ERR_TOO_MANY_OBJECTS) {
                fail(DiscoveryError(avahiCode: code, operation: "resolving \(key.name)"))
            }
            return
        }
        context.resolver = resolver
        resolvers[key] = context
        settle.resolverStarted(key)
    }

    fileprivate func resolverEvent(_ context: ResolverContext, _ event: AvahiResolverEvent,
                                   _ hostName: UnsafePointer<CChar>?, _ address: UnsafePointer<AvahiAddress>?,
                                   _ port: UInt16, _ txt: UnsafeMutablePointer<AvahiStringList>?) {
        // The resolver is kept open after its first answer: Avahi then reports
        // FOUND again whenever the service's TXT, host or port changes.
        guard resolvers[context.key] === context else { return }
        let firstAnswer = !context.hasAnswered
        context.hasAnswered = true
        if event == AVAHI_RESOLVER_FOUND, let address {
            let key = context.key
            let printer = DiscoveredPrinter(
                serviceName: key.name,
                secure: key.type.lowercased().hasPrefix("_ipps."),
                raw: key.type.lowercased().hasPrefix("_pdl-datastream."),
                hostName: hostName.map { String(cString: $0) } ?? "",
                address: AvahiText.address(address),
                port: Int(port),
                interfaceIndex: key.interface,
                txt: TXTRecord(strings: AvahiText.strings(txt)))
            emit(merger.update(key, printer))
        }
        // FAILURE (mostly a timeout: the service did not answer) is not fatal
        // and changes no printer: a record never resolved stays out of the
        // list, one resolved before stays until the browser removes it. The
        // resolver keeps listening and reports FOUND if the printer answers.
        if firstAnswer, settle.resolverFinished(context.key) { emit([.settled]) }
    }
}

/// What a browser callback needs to know: whose browse it is and which type
/// it browses (ALL_FOR_NOW comes with no type of its own).
private final class BrowserContext {
    unowned let session: AvahiSession
    let serviceType: String
    var browser: OpaquePointer?

    init(session: AvahiSession, serviceType: String) {
        self.session = session
        self.serviceType = serviceType
    }
}

/// One open resolver and the record it resolves.
private final class ResolverContext {
    unowned let session: AvahiSession
    let key: ServiceKey
    var resolver: OpaquePointer!
    /// True after the first FOUND or FAILURE: the point that counts for `.settled`.
    var hasAnswered = false

    init(session: AvahiSession, key: ServiceKey) {
        self.session = session
        self.key = key
    }
}

// Non-capturing closures, so they convert to C function pointers; the
// context comes back through `userdata`.
private let browserCallback: AvahiServiceBrowserCallback = { _, interface, proto, event, name, type, domain, _, userdata in
    let context = Unmanaged<BrowserContext>.fromOpaque(userdata!).takeUnretainedValue()
    context.session.browserEvent(context, interface, proto, event, name, type, domain)
}

private let resolverCallback: AvahiServiceResolverCallback = {
    _, _, _, event, _, _, _, hostName, address, port, txt, _, userdata in
    let context = Unmanaged<ResolverContext>.fromOpaque(userdata!).takeUnretainedValue()
    context.session.resolverEvent(context, event, hostName, address, port, txt)
}

extension ServiceKey {
    /// The key of a browser event; nil when Avahi leaves a field out.
    init?(_ interface: AvahiIfIndex, _ proto: AvahiProtocol, _ name: UnsafePointer<CChar>?,
          _ type: UnsafePointer<CChar>?, _ domain: UnsafePointer<CChar>?) {
        guard let name, let type, let domain else { return nil }
        self.init(interface: interface, family: proto == AvahiProtocol(AVAHI_PROTO_INET6) ? .ipv6 : .ipv4,
                  name: String(cString: name), type: String(cString: type), domain: String(cString: domain))
    }
}
