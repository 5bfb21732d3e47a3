import BenchSupport
import Foundation
import IPP
import PrintModel
import Setup
import Simulator
import Spooler
import Store
import Synchronization
import Templates

/// `kioskprint-bench moved [--rounds N]`: issue 13's figure. A receipt
/// printer saved at one address starts answering at another (DHCP after a
/// router restart), announcing itself under its saved DNS-SD UUID; a receipt
/// is queued; how long until it completes there. Beside it, the same receipt
/// to the same printer saved at its right address (what the move costs), and
/// what happens without the UUID search (nothing prints until a person saves
/// the printer again). Needs root (the lab's avahi-daemon).
enum MovedBench {
    static let defaultRounds = 10

    /// Runs in the lab `LabOptions.enterLab` set up: root, its own loopback.
    static func run(rounds: Int) async -> Never {
        await BenchReport.run("moved") {
            progress("starting a lab with one recording 80 mm receipt printer")
            let lab = try await PrinterLab.start([], nameTag: PrinterLab.processTag)
            defer { lab.stop() }
            let printer = try await lab.startPrinter(.recording(.receipt80mm))
            let capabilities = try await PrinterContact.contact(uri: printer.uri, timeout: .seconds(5))
            var moved: [Duration] = [], inPlace: [Duration] = [], browse: [Duration] = []
            for round in 0..<rounds {
                progress("round \(round + 1) of \(rounds)")
                let (afterMove, search) = try await movedReceipt(lab: lab, printer: printer, capabilities: capabilities, round: round)
                moved.append(afterMove)
                browse.append(search)
                inPlace.append(try await receiptInPlace(printer: printer, capabilities: capabilities))
            }
            var table = BenchTable()
            table.section("1. A saved receipt printer answers at a new address, announced under its saved UUID: \(rounds) rounds (ms)")
            let how = table.footnote("Each round: a KioskStore on a temporary file; the printer saved with its capabilities and a UUID of the "
                + "round's own at ipp://127.0.0.1:PORT/ipp/print where nothing listens (its old address); avahi-publish announces "
                + "_ipp._tcp with that UUID at the printer's real port (timing starts "
                + "once avahi-publish reports the record established, as a printer that came back on a new address); a 30-item receipt enqueued and delivered with Spooler.deliver "
                + "under the default configuration but a failover grace of an hour, locating with Setup's PrinterRelocator "
                + "(a DNS-SD browse of _ipp._tcp and _ipps._tcp for the UUID, 10 s deadline), as `kioskprint run` does.")
            table.add("announced at the new address -> job completed there", Sample(moved).spread(), "the same receipt, printer saved at its right address",
                      Sample(inPlace).spread(), note: "the move costs the refused contact, the browse, the saved URI's update \(how)")
            table.add("  of which the UUID browse", Sample(browse).spread(), "without the UUID search", "never",
                      note: "the job waits, the role stays stopped until a person saves the printer again")
            return .init(blocks: [table.render()],
                         legend: "ms = milliseconds, med = median, p90/p99 = 90th/99th percentile (nearest rank)")
        }
    }

    static func store() throws -> KioskStore {
        try KioskStore(path: FileManager.default.temporaryDirectory
            .appendingPathComponent("kioskprint-moved-\(UUID().uuidString)/kioskprint.sqlite").path)
    }

    static func receipt(_ store: KioskStore) async throws -> PrintJob {
        let sample = BuiltInTemplates.all.first { $0.name == "receipt" }?.sampleData ?? "{}"
        return try await store.enqueue(name: "Receipt after the move", role: try Role("receipt"),
                                       content: .template(name: "receipt", dataJSON: sample))
    }

    /// One move: the time from the new announcement to the completed job, and the browse's share.
    static func movedReceipt(lab: PrinterLab, printer: RunningPrinter, capabilities: PrinterCapabilities,
                             round: Int) async throws -> (Duration, Duration) {
        let store = try store()
        defer { try? FileManager.default.removeItem(atPath: (store.path as NSString).deletingLastPathComponent) }
        let uuid = UUID().uuidString.lowercased()
        var saved = capabilities
        saved.uuid = uuid
        let old = "ipp://127.0.0.1:\(try Loopback.freePort())/ipp/print"
        _ = try await store.assign(uri: old, serviceName: nil, capabilities: saved, to: try Role("receipt"), as: .primary)
        let job = try await receipt(store)
        let publication = try await lab.publish(name: "Moved Receipt \(round) \(uuid.prefix(6))", port: printer.port,
                                                txt: ["rp=ipp/print", "UUID=\(uuid)", "ty=KioskPrint Receipt"])
        defer { publication.stop() }
        let browseTime = BrowseClock()
        var configuration = SpoolerConfiguration()
        configuration.failoverGrace = .seconds(3600)
        let spooler = Spooler(store: store, preparer: DocumentPreparer(catalog: TemplateCatalog()), configuration: configuration,
                              locate: { saved in
                                  let started = ContinuousClock.now
                                  defer { browseTime.add(ContinuousClock.now - started) }
                                  return await PrinterRelocator(timeout: .seconds(10)).find(saved)
                              })
        let started = ContinuousClock.now
        let done = try await spooler.deliver(job.id)
        let elapsed = ContinuousClock.now - started
        guard done.state == .completed, done.printer?.uri.contains(":\(printer.port)/") == true else {
            throw BenchError("the moved printer's receipt ended \(done.state) at \(done.printer?.uri ?? "no printer"): \(done.lastError ?? "")")
        }
        return (elapsed, browseTime.total)
    }

    /// The same receipt to the printer saved where it is.
    static func receiptInPlace(printer: RunningPrinter, capabilities: PrinterCapabilities) async throws -> Duration {
        let store = try store()
        defer { try? FileManager.default.removeItem(atPath: (store.path as NSString).deletingLastPathComponent) }
        _ = try await store.assign(uri: printer.uri, serviceName: nil, capabilities: capabilities, to: try Role("receipt"), as: .primary)
        let job = try await receipt(store)
        let started = ContinuousClock.now
        let done = try await Spooler(store: store, preparer: DocumentPreparer(catalog: TemplateCatalog())).deliver(job.id)
        guard done.state == .completed else { throw BenchError("the receipt in place ended \(done.state)") }
        return ContinuousClock.now - started
    }
}

/// The time spent in the locator, summed over one delivery.
private final class BrowseClock: Sendable {
    private let spent = Mutex<Duration>(.zero)
    func add(_ duration: Duration) { spent.withLock { $0 += duration } }
    var total: Duration { spent.withLock { $0 } }
}
