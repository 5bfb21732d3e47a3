import Foundation
import Synchronization
import Testing
@testable import Discovery
import PrintModel
import Simulator

/// Browsing the lab's real avahi-daemon, with real ippeveprinter printers and
/// real `avahi-publish` records. Other test processes run labs on the same
/// loopback at the same time, and their records are visible here too, so
/// every check picks its printers by port or by a UUID of its own.
@Suite struct LiveBrowseTests {
    @Test func theLabPrintersAppearOnceEachOverTLSAndTheBrowseSettles() async throws {
        let lab = try await PrinterLab.shared()
        let labPorts = Set(lab.standardPrinters.map(\.port))
        try #require(labPorts.count == 3)
        let announced = try await waitUntilAnnounced(lab)

        // A fresh browse, now that the printers are on the network: by
        // `.settled` it must have found and resolved every one of them.
        let log = await EventLog.start()
        defer { Task { await log.stop() } }
        let entries = try await log.wait(for: ".settled") { $0.hasSettled }
        let settleIndex = entries.firstIndex { $0.event == .settled }!
        let untilSettled = Array(entries[...settleIndex])
        let allThreeIndex = untilSettled.indices.first { labPorts.isSubset(of: securePorts(untilSettled[...$0]))}
        print("[timing] browse start to .settled: \(untilSettled[settleIndex].elapsed); "
              + "to all three lab printers over ipps: \(allThreeIndex.map { "\(untilSettled[$0].elapsed)" } ?? "not by then"); "
              + "events before .settled: \(settleIndex); first browse after lab start saw them all after \(announced)")

        let current = untilSettled.currentPrinters.values
        for running in lab.standardPrinters {
            let found = current.filter { $0.port == running.port }
            #expect(found.count == 1, "\(running.name) at .settled: \(found)")
            guard let printer = found.first else { continue }
            // ippeveprinter renames on a collision (another lab on the loopback): NAME (XXXXXX).
            #expect(printer.serviceName.hasPrefix(running.name))
            #expect(printer.secure, "the _ipps record of \(running.name) is preferred")
            #expect(printer.txt.resourcePath == "ipp/print")
            #expect(printer.txt.uuid != nil, "ippeveprinter announces a UUID")
            #expect(printer.address == "127.0.0.1", "IPv4 preferred")
            #expect(printer.uri == "ipps://127.0.0.1:\(running.port)/ipp/print")
            let appearances = untilSettled.filter {
                if case .appeared(let p) = $0.event { p.port == running.port } else { false }
            }
            #expect(appearances.count == 1, "\(running.name) appeared \(appearances.count) times")
            #expect(!untilSettled.events(for: printer.id).contains(.disappeared(id: printer.id)))
        }
        #expect(entries.filter { $0.event == .settled }.count == 1)
    }

    @Test func aPublishedRecordArrivesWithItsTXTAndLeavesWhenWithdrawn() async throws {
        let lab = try await PrinterLab.shared()
        let suffix = uniqueSuffix()
        let uuid = "d15c0ee7-0000-4000-8000-0000\(suffix)"
        let name = "Disc TXT \(suffix)"
        let log = await EventLog.start()
        defer { Task { await log.stop() } }

        let publication = try await lab.publish(
            name: name, type: "_ipp._tcp", port: 9101,
            txt: ["kind=receipt,roll", "ty=Star TSP143IV", "note=Till 3", "UUID=\(uuid)", "rp=ipp/print",
                  "dup=first", "dup=second"])
        defer { publication.stop() }
        let id = "uuid:\(uuid)"
        let entries = try await log.wait(for: "\(name) to appear") { $0.currentPrinters[id] != nil }
        let printer = try #require(entries.currentPrinters[id])
        #expect(printer.serviceName == name)
        #expect(printer.txt.kinds == [.receipt, .roll])
        #expect(printer.txt.makeAndModel == "Star TSP143IV")
        #expect(printer.txt.location == "Till 3")
        #expect(printer.txt.uuid == uuid)
        #expect(printer.secure == false)
        #expect(printer.port == 9101)
        #expect(printer.address == "127.0.0.1")
        #expect(printer.interfaceIndex > 0)
        #expect(printer.uri == "ipp://127.0.0.1:9101/ipp/print")
        // avahi-publish puts its strings on the wire in argument order (checked with a raw
        // mDNS query); RFC 6763 §6.4 says the first of two equal keys counts.
        #expect(printer.txt["dup"] == "first", "TXT strings must be read in wire order")

        publication.stop()
        let after = try await log.wait(for: "\(name) to disappear") {
            $0.events(for: id).last == .disappeared(id: id)
        }
        #expect(after.events(for: id).filter { $0 == .disappeared(id: id) }.count == 1)
    }

    @Test func ippsArrivingAfterIppIsAChangeAndGoingBackIsToo() async throws {
        let lab = try await PrinterLab.shared()
        let suffix = uniqueSuffix()
        let uuid = "5ecc0000-0000-4000-8000-0000\(suffix)"
        let id = "uuid:\(uuid)"
        let name = "Disc Secure \(suffix)"
        let log = await EventLog.start()
        defer { Task { await log.stop() } }

        let plain = try await lab.publish(name: name, type: "_ipp._tcp", port: 9102, txt: ["UUID=\(uuid)"])
        defer { plain.stop() }
        try await log.wait(for: "the _ipp record") { $0.events(for: id).count == 1 }

        let secure = try await lab.publish(name: name, type: "_ipps._tcp", port: 9103, txt: ["UUID=\(uuid)"])
        defer { secure.stop() }
        try await log.wait(for: "the _ipps record") { $0.events(for: id).count == 2 }

        secure.stop()
        try await log.wait(for: "the _ipps record to go") { $0.events(for: id).count == 3 }
        plain.stop()
        let entries = try await log.wait(for: "the _ipp record to go") { $0.events(for: id).count == 4 }

        let events = entries.events(for: id)
        guard case .appeared(let first) = events[0], case .changed(let second) = events[1],
              case .changed(let third) = events[2] else {
            Issue.record("expected appeared, changed, changed, disappeared; got \(events)")
            return
        }
        #expect(first.secure == false && first.port == 9102)
        #expect(second.secure == true && second.port == 9103)
        #expect(third.secure == false && third.port == 9102)
        #expect(events[3] == .disappeared(id: id))
    }

    @Test func snapshotReturnsTheSettledListSortedByName() async throws {
        let lab = try await PrinterLab.shared()
        try await waitUntilAnnounced(lab)
        let started = ContinuousClock.now
        let printers = try await PrinterBrowser().snapshot(timeout: .seconds(15))
        let took = ContinuousClock.now - started
        print("[timing] snapshot(timeout: 15 s) returned \(printers.count) printers after \(took)")
        #expect(took < .seconds(15), "settled before the timeout")
        let names = printers.map { $0.serviceName.lowercased() }
        #expect(names == names.sorted())
        #expect(Set(printers.map(\.id)).count == printers.count, "one entry per printer")
        // The lab printers were running before the browse began, so the settled list has them.
        for running in lab.standardPrinters {
            #expect(printers.contains { $0.port == running.port && $0.secure }, "\(running.name) missing")
        }
    }

    @Test func aShortSnapshotTimeoutReturnsWithoutError() async throws {
        _ = try await PrinterLab.shared()
        let started = ContinuousClock.now
        _ = try await PrinterBrowser().snapshot(timeout: .milliseconds(1))
        // A bound on a hang only: it returns in milliseconds on a quiet machine,
        // and took 6 s once on a CI machine busy with the rest of the suite.
        #expect(ContinuousClock.now - started < .seconds(15))
    }

    @Test func endingTheStreamStopsThePollThreadAndFreesAvahi() async throws {
        _ = try await PrinterLab.shared()
        let stopped = Mutex<Bool>(false)
        let log = await EventLog.start(afterStop: { stopped.withLock { $0 = true } })
        try await log.wait(for: ".settled") { $0.hasSettled }
        #expect(!stopped.withLock { $0 }, "the browse runs until told to stop")
        await log.stop()
        // The poll thread wakes from its blocking poll, frees every object and calls back.
        let didStop = await pollUntil(within: .seconds(20)) { stopped.withLock { $0 } }
        #expect(didStop, "the poll thread did not stop after cancellation")
    }

    @Test func anAbandonedStreamStopsItsBrowse() async throws {
        _ = try await PrinterLab.shared()
        let stopped = Mutex<Bool>(false)
        do {
            // Never iterated: dropping the last reference must still end the browse.
            _ = PrinterBrowser().events(afterStop: { stopped.withLock { $0 = true } })
        }
        let didStop = await pollUntil(within: .seconds(20)) { stopped.withLock { $0 } }
        #expect(didStop, "a dropped stream left its poll thread running")
    }
}

/// The lab starts its printers without waiting for Avahi to announce them
/// (probing takes a second or more, longer after a name collision with
/// another lab on the loopback). Waits until a browse sees all of them over
/// TLS, and returns how long that took.
@discardableResult
func waitUntilAnnounced(_ lab: PrinterLab) async throws -> Duration {
    let ports = Set(lab.standardPrinters.map(\.port))
    let log = await EventLog.start()
    defer { Task { await log.stop() } }
    let entries = try await log.wait(for: "the lab printers to be announced", timeout: .seconds(30)) {
        ports.isSubset(of: securePorts($0[...]))
    }
    let settled = entries.first { $0.event == .settled }.map { "\($0.elapsed)" } ?? "not yet"
    print("[timing] waiting for the lab: .settled after \(settled); all lab printers over ipps after \(entries.last!.elapsed)")
    return entries.last!.elapsed
}

/// The ports of the printers currently seen over `_ipps`.
func securePorts(_ entries: ArraySlice<EventLog.Entry>) -> Set<Int> {
    Set(Array(entries).currentPrinters.values.filter(\.secure).map(\.port))
}

/// TXT changes of a service that stays published.
@Suite struct TXTChangeTests {
    @Test func aTXTChangeOfAKnownPrinterIsAChange() async throws {
        _ = try await PrinterLab.shared()
        let suffix = uniqueSuffix()
        let uuid = "c4a96e00-0000-4000-8000-0000\(suffix)"
        let id = "uuid:\(uuid)"
        let log = await EventLog.start()
        defer { Task { await log.stop() } }

        // Two `dup` keys: RFC 6763 says the first one counts, so the order the
        // strings come out of Avahi matters.
        let publisher = try TXTPublisher(name: "Disc Change \(suffix)", port: 9104,
                                         txt: ["UUID=\(uuid)", "note=Till 3", "dup=first", "dup=second"])
        defer { publisher.stop() }
        let first = try await log.wait(for: "the record") { $0.currentPrinters[id] != nil }
        #expect(first.currentPrinters[id]?.txt.location == "Till 3")
        #expect(first.currentPrinters[id]?.txt["dup"] == "first", "TXT strings arrive in published order")

        try publisher.update(txt: ["UUID=\(uuid)", "note=Till 4", "kind=receipt"])
        let entries = try await log.wait(for: "the new TXT") { $0.currentPrinters[id]?.txt.location == "Till 4" }
        let events = entries.events(for: id)
        #expect(events.count == 2, "\(events)")
        guard case .appeared = events.first, case .changed(let changed) = events.last else {
            Issue.record("expected appeared then changed, got \(events)")
            return
        }
        #expect(changed.txt.kinds == [.receipt])
        #expect(changed.txt["dup"] == nil)
    }
}
