import Testing
@testable import Discovery
import PrintModel

/// The dedup and preference rules, fed synthetic records: no Avahi involved.
@Suite struct PrinterMergerTests {
    static let uuid = "6c1e3f1a-0000-4000-8000-00000000abcd"

    static func key(_ type: String, _ family: IPFamily = .ipv4, interface: Int32 = 2,
                    name: String = "Front Counter") -> ServiceKey {
        ServiceKey(interface: interface, family: family, name: name, type: type, domain: "local")
    }

    static func printer(_ key: ServiceKey, address: String? = nil, uuid: String? = PrinterMergerTests.uuid,
                        extra: [String] = []) -> DiscoveredPrinter {
        let txt = ["rp=ipp/print", "ty=Example TM-80"] + (uuid.map { ["UUID=\($0)"] } ?? []) + extra
        return DiscoveredPrinter(serviceName: key.name, secure: key.type == "_ipps._tcp", hostName: "tm.local",
                                 address: address ?? (key.family == .ipv4 ? "192.168.1.40" : "fe80::1"),
                                 port: 631, interfaceIndex: key.interface, txt: TXTRecord(strings: txt))
    }

    let ipp4 = key("_ipp._tcp")
    let ipps4 = key("_ipps._tcp")

    @Test func ippsArrivingAfterIppIsAChange() {
        let merger = Harness()
        let ipp = Self.printer(ipp4), ipps = Self.printer(ipps4)
        #expect(merger.update(ipp4, ipp) == [.appeared(ipp)])
        #expect(merger.update(ipps4, ipps) == [.changed(ipps)])
        #expect(merger.printers == [ipps])
    }

    @Test func ippArrivingAfterIppsChangesNothing() {
        let merger = Harness()
        let ipp = Self.printer(ipp4), ipps = Self.printer(ipps4)
        #expect(merger.update(ipps4, ipps) == [.appeared(ipps)])
        #expect(merger.update(ipp4, ipp) == [])
        #expect(merger.printers == [ipps])
    }

    @Test func losingIppsFallsBackToIppAndLosingBothIsADisappearance() {
        let merger = Harness()
        let ipp = Self.printer(ipp4), ipps = Self.printer(ipps4)
        _ = merger.update(ipp4, ipp)
        _ = merger.update(ipps4, ipps)
        #expect(merger.remove(ipps4) == [.changed(ipp)])
        #expect(merger.remove(ipp4) == [.disappeared(id: ipp.id)])
        #expect(merger.printers.isEmpty)
        #expect(merger.remove(ipp4) == [], "removing an unknown record says nothing")
    }

    @Test func losingIppWhileIppsRemainsChangesNothing() {
        let merger = Harness()
        _ = merger.update(ipp4, Self.printer(ipp4))
        _ = merger.update(ipps4, Self.printer(ipps4))
        #expect(merger.remove(ipp4) == [])
        #expect(merger.printers.map(\.secure) == [true])
    }

    @Test func theSameServiceOnSeveralFamiliesAndInterfacesIsOnePrinterPreferringIPv4() {
        let merger = Harness()
        let v6 = Self.key("_ipp._tcp", .ipv6), v4 = Self.key("_ipp._tcp", .ipv4)
        let v4OtherInterface = Self.key("_ipp._tcp", .ipv4, interface: 3)
        let p6 = Self.printer(v6), p4 = Self.printer(v4), p4b = Self.printer(v4OtherInterface, address: "10.0.0.7")
        #expect(merger.update(v6, p6) == [.appeared(p6)])
        #expect(merger.update(v4OtherInterface, p4b) == [.changed(p4b)], "IPv4 beats IPv6")
        #expect(merger.update(v4, p4) == [.changed(p4)], "then the lower interface index")
        #expect(merger.remove(v6) == [])
        #expect(merger.remove(v4) == [.changed(p4b)])
        #expect(merger.printers.count == 1)
    }

    @Test func secureBeatsIPv4() {
        let merger = Harness()
        let ipps6 = Self.key("_ipps._tcp", .ipv6)
        let secure6 = Self.printer(ipps6), plain4 = Self.printer(ipp4)
        _ = merger.update(ipp4, plain4)
        #expect(merger.update(ipps6, secure6) == [.changed(secure6)])
    }

    @Test func aTXTChangeIsAChangeAndTheSameAnswerAgainIsNot() {
        let merger = Harness()
        let before = Self.printer(ipps4), after = Self.printer(ipps4, extra: ["note=Back office"])
        _ = merger.update(ipps4, before)
        #expect(merger.update(ipps4, before) == [])
        #expect(merger.update(ipps4, after) == [.changed(after)])
        #expect(merger.printers.first?.txt.location == "Back office")
    }

    @Test func aTXTChangeHiddenBehindABetterRecordIsNotReported() {
        let merger = Harness()
        _ = merger.update(ipps4, Self.printer(ipps4))
        _ = merger.update(ipp4, Self.printer(ipp4))
        #expect(merger.update(ipp4, Self.printer(ipp4, extra: ["note=Moved"])) == [])
    }

    @Test func differentUUIDsUnderOneNameAreTwoPrinters() {
        let merger = Harness()
        let a = Self.printer(ipp4, uuid: "aaaa"), b = Self.printer(ipps4, uuid: "bbbb")
        #expect(merger.update(ipp4, a) == [.appeared(a)])
        #expect(merger.update(ipps4, b) == [.appeared(b)])
        #expect(Set(merger.printers.map(\.id)) == ["uuid:aaaa", "uuid:bbbb"])
    }

    @Test func withoutAUUIDTheServiceNameIdentifies() {
        let merger = Harness()
        let ipp = Self.printer(ipp4, uuid: nil), ipps = Self.printer(ipps4, uuid: nil)
        _ = merger.update(ipp4, ipp)
        #expect(merger.update(ipps4, ipps) == [.changed(ipps)])
        #expect(merger.printers.map(\.id) == ["name:Front Counter"])
    }

    @Test func uuidSpellingsMatch() {
        let merger = Harness()
        let ipp = Self.printer(ipp4, uuid: "6C1E3F1A-0000-4000-8000-00000000ABCD")
        let ipps = Self.printer(ipps4, uuid: "urn:uuid:6c1e3f1a-0000-4000-8000-00000000abcd")
        _ = merger.update(ipp4, ipp)
        #expect(merger.update(ipps4, ipps) == [.changed(ipps)])
    }

    @Test func aRecordWhoseUUIDChangesMovesToAnotherPrinter() {
        let merger = Harness()
        let old = Self.printer(ipp4, uuid: "aaaa"), new = Self.printer(ipp4, uuid: "bbbb")
        _ = merger.update(ipp4, old)
        #expect(merger.update(ipp4, new) == [.disappeared(id: "uuid:aaaa"), .appeared(new)])
    }
}

/// When `.settled` is due.
@Suite struct SettleTrackerTests {
    static let a = ServiceKey(interface: 1, family: .ipv4, name: "A", type: "_ipp._tcp", domain: "local")
    static let b = ServiceKey(interface: 1, family: .ipv4, name: "B", type: "_ipps._tcp", domain: "local")

    @Test func waitsForEveryTypeAndEveryEarlyResolver() {
        let tracker = TrackerHarness(serviceTypes: ["_ipp._tcp", "_ipps._tcp"])
        tracker.resolverStarted(Self.a)
        #expect(!tracker.browserSaidAllForNow("_ipp._tcp"))
        tracker.resolverStarted(Self.b)
        #expect(!tracker.browserSaidAllForNow("_ipps._tcp"), "two resolvers still running")
        #expect(!tracker.resolverFinished(Self.a))
        #expect(tracker.resolverFinished(Self.b))
        #expect(tracker.isSettled)
        #expect(!tracker.resolverFinished(Self.b), "settled only once")
    }

    @Test func resolversStartedAfterTheLastAllForNowDoNotHoldItBack() {
        let tracker = TrackerHarness(serviceTypes: ["_ipp._tcp"])
        tracker.resolverStarted(Self.a)
        #expect(!tracker.browserSaidAllForNow("_ipp._tcp"))
        tracker.resolverStarted(Self.b)  // a live arrival, after the first full answer
        #expect(tracker.resolverFinished(Self.a))
    }
}

/// Reference wrappers, because `#expect` captures its expression in a closure
/// that cannot call a mutating method on a local value.
private final class Harness {
    var merger = PrinterMerger()
    func update(_ key: ServiceKey, _ printer: DiscoveredPrinter) -> [DiscoveryEvent] { merger.update(key, printer) }
    func remove(_ key: ServiceKey) -> [DiscoveryEvent] { merger.remove(key) }
    var printers: [DiscoveredPrinter] { merger.printers }
}

private final class TrackerHarness {
    var tracker: SettleTracker
    init(serviceTypes: [String]) { tracker = SettleTracker(serviceTypes: serviceTypes) }
    func resolverStarted(_ key: ServiceKey) { tracker.resolverStarted(key) }
    func resolverFinished(_ key: ServiceKey) -> Bool { tracker.resolverFinished(key) }
    func browserSaidAllForNow(_ type: String) -> Bool { tracker.browserSaidAllForNow(type) }
    var isSettled: Bool { tracker.isSettled }
}
