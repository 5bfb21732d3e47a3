import Foundation
import PrintModel
import Spooler
import Store
import Templates
import Testing

/// The real runner, store and machine, with printers that play back scripted
/// answers: failover, the unknown-fate rules and retries run in milliseconds,
/// without root. The live suites (DeliveryTests) keep the real printers.
@Suite(.timeLimit(.minutes(1))) struct ScriptedDeliveryTests {
    static let roll80 = RollMedia(width: .millimetres(80), cutLengths: .millimetres(25)...Length.millimetres(3000),
                                  margins: Margins(left: .millimetres(4), right: .millimetres(4)), source: "main-roll")

    static func capabilities(_ name: String) -> PrinterCapabilities {
        PrinterCapabilities(name: name, kinds: [.receipt, .roll], documentFormats: ["image/pwg-raster"],
                            resolutions: Resolutions(pwgRaster: [Resolution(203)], preferred: Resolution(203)),
                            rolls: [roll80], trims: [.afterPages])
    }

    let store: KioskStore
    let events = EventLog()

    init() throws {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("kioskprint-scripted-\(UUID().uuidString)/kioskprint.sqlite").path
        store = try KioskStore(path: path)
    }

    /// Saves a scripted printer under `role` at `uri`.
    func save(_ uri: String, _ name: String, role: String, as place: RolePlace = .primary) async throws {
        _ = try await store.assign(uri: uri, serviceName: nil, capabilities: Self.capabilities(name), to: try Role(role), as: place)
    }

    func spooler(_ printers: ScriptedPrinters, grace: Duration = .zero) -> Spooler {
        let events = events
        let configuration = SpoolerConfiguration(retry: RetryPolicy(initial: .milliseconds(1), maximum: .milliseconds(5)),
                                                 failoverGrace: grace, idlePoll: .milliseconds(5),
                                                 followInterval: .milliseconds(5))
        return Spooler(store: store, preparer: DocumentPreparer(catalog: TemplateCatalog()), configuration: configuration,
                       channels: printers.channels) { events.append($0) }
    }

    func enqueue(role: String) async throws -> PrintJob {
        let sample = BuiltInTemplates.all.first { $0.name == "receipt" }!.sampleData!
        return try await store.enqueue(name: "Receipt 4711", role: try Role(role), content: .template(name: "receipt", dataJSON: sample))
    }

    @Test func aPrimaryOutOfPaperFailsOverToTheBackupWhichPrintsIt() async throws {
        let paperOut = PrinterProblem(text: "Primary reports media-empty.", reasons: ["media-empty"])
        let primary = ScriptedChannel(.init(readiness: [.trouble(paperOut)]))
        let backup = ScriptedChannel(.init())
        try await save("ipp://primary/ipp/print", "Primary", role: "receipt")
        try await save("ipp://backup/ipp/print", "Backup", role: "receipt", as: .backup)
        let queued = try await enqueue(role: "receipt")

        let job = try await spooler(ScriptedPrinters(byURI: ["ipp://primary/ipp/print": primary,
                                                             "ipp://backup/ipp/print": backup])).deliver(queued.id)
        #expect(job.state == .completed && job.printer?.name == "Backup")
        #expect(!primary.calls.contains("submit") && backup.calls.filter { $0 == "submit" }.count == 1)
        #expect(events.lines.contains { $0.contains("Primary stayed unavailable; printing on the backup Backup") })
        #expect(events.lines.contains { $0.contains("printer Primary (role receipt) needs attention: Primary reports media-empty.") })
    }

    @Test func aBrokenSendToARawReceiptPrinterIsPrintedAgainMarked() async throws {
        let raw = ScriptedChannel(.init(submits: [.mayHaveBeenAccepted("The connection broke after 812 of 9000 bytes."),
                                                  .printed(notes: [], impressions: 1)],
                                        searches: [.unsupported]))
        try await save("socket://till/", "Till", role: "receipt")
        let queued = try await enqueue(role: "receipt")

        let job = try await spooler(ScriptedPrinters(byURI: ["socket://till/": raw])).deliver(queued.id)
        #expect(job.state == .completed && job.impressionsCompleted == 1)
        #expect(raw.calls == ["readiness", "submit", "find \(job.marker)", "readiness", "submit"])
        #expect(raw.submissions == ["Receipt 4711 [\(job.marker)]", "REPRINT: Receipt 4711 [\(job.marker)]"])
        // The second print is longer by its REPRINT banner.
        let lengths = raw.cutLengths
        #expect(lengths.count == 2 && lengths[1] > lengths[0], "\(lengths)")
        #expect(events.lines.contains { $0.contains("it is printed again, marked REPRINT (role rule reprint-marked)") })
    }

    @Test func aBrokenSendToARawCouponPrinterIsHeldUntilAnOperatorRetriesIt() async throws {
        let raw = ScriptedChannel(.init(submits: [.mayHaveBeenAccepted("The connection broke after 812 of 9000 bytes."),
                                                  .printed(notes: [], impressions: 1)],
                                        searches: [.unsupported]))
        try await save("socket://coupons/", "Coupons", role: "coupon")
        let queued = try await enqueue(role: "coupon")
        let spooler = spooler(ScriptedPrinters(byURI: ["socket://coupons/": raw]))

        let held = try await spooler.deliver(queued.id)
        #expect(held.state == .held)
        #expect(held.lastError?.contains("kioskprint jobs retry \(queued.id)") == true)
        #expect(raw.calls.filter { $0 == "submit" }.count == 1, "held means not sent again")

        _ = try await store.retry(queued.id)
        let printed = try await spooler.deliver(queued.id)
        #expect(printed.state == .completed && raw.calls.filter { $0 == "submit" }.count == 2)
    }

    @Test func aHeldJobCanBeCanceled() async throws {
        let raw = ScriptedChannel(.init(submits: [.mayHaveBeenAccepted("broke")], searches: [.unsupported]))
        try await save("socket://coupons/", "Coupons", role: "coupon")
        let queued = try await enqueue(role: "coupon")
        _ = try await spooler(ScriptedPrinters(byURI: ["socket://coupons/": raw])).deliver(queued.id)
        let outcome = try await JobCanceller(store: store).cancel(queued.id)
        guard case .canceled = outcome else { Issue.record("\(outcome)"); return }
        #expect(try await store.job(queued.id).state == .canceled)
    }

    @Test func aBusyPrinterIsRetriedAndReportedOnce() async throws {
        let busy = "ipp://busy/ipp/print is busy with another job."
        let printer = ScriptedChannel(.init(submits: [.retryable(busy), .retryable(busy), .retryable(busy),
                                                      .accepted(PrinterTicket(8))]))
        try await save("ipp://busy/ipp/print", "Busy", role: "receipt")
        let queued = try await enqueue(role: "receipt")
        let job = try await spooler(ScriptedPrinters(byURI: ["ipp://busy/ipp/print": printer])).deliver(queued.id)
        #expect(job.state == .completed && job.printerJobID == 8)
        #expect(job.attempts == 3, "each refused send is counted")
        #expect(events.lines.filter { $0.contains(busy) }.count == 1)
    }

    @Test func aJobAtThePrinterIsCanceledThereThroughItsChannel() async throws {
        let printer = ScriptedChannel(.init(statuses: [.progress(stopped: false, reasons: [], impressions: 0)]))
        try await save("ipp://slow/ipp/print", "Slow", role: "receipt")
        let queued = try await enqueue(role: "receipt")
        let job = try await store.claimNext(role: try Role("receipt"), owner: "test", lease: .seconds(30))!
        let printerRecord = try await store.assignments(for: try Role("receipt"))[0].printer
        _ = try await store.markSending(jobID: job.id, owner: "test", printer: JobPrinter(printerRecord))
        _ = try await store.markSent(jobID: job.id, owner: "test", printerJobID: 44)
        let channels = ScriptedPrinters(byURI: ["ipp://slow/ipp/print": printer]).channels
        let outcome = try await JobCanceller(store: store, channels: channels).cancel(queued.id)
        guard case .canceledAtPrinter(_, let printerJobID) = outcome else { Issue.record("\(outcome)"); return }
        #expect(printerJobID == 44 && printer.calls == ["cancel 44"])
    }

    @Test func paperNearItsEndIsAWarningSaidOnceNotAStop() async throws {
        let printer = ScriptedChannel(.init(readiness: [Readiness(warnings: ["media-low"])]))
        try await save("socket://till/", "Till", role: "receipt")
        let spooler = spooler(ScriptedPrinters(byURI: ["socket://till/": printer]))
        for _ in 0..<2 {
            let job = try await spooler.deliver(try await enqueue(role: "receipt").id)
            #expect(job.state == .completed)
        }
        #expect(events.lines.filter { $0.contains("warns of paper near its end (media-low); it still prints") }.count == 1)
    }

    @Test func aRowThisVersionCannotReadIsSetAsideAndTheRoleGoesOn() async throws {
        try await save("ipp://till/ipp/print", "Till", role: "receipt")
        let bad = try await enqueue(role: "receipt")
        try await store.markUnreadableForTest(bad.id)
        let good = try await enqueue(role: "receipt")
        let job = try await spooler(ScriptedPrinters(byURI: ["ipp://till/ipp/print": ScriptedChannel(.init())])).deliver(good.id)
        #expect(job.state == .completed)
        #expect(try await store.job(bad.id).state == .setAside)
        #expect(events.lines.contains { $0.contains("job \(bad.id) (role receipt) was set aside") })
    }

    @Test func aPrinterThatStopsAnsweringWhileAJobWaitsIsSaidOnceAndSoIsItsReturn() async throws {
        let silent = "ipp://till/ipp/print did not answer within 5 s."
        let printer = ScriptedChannel(.init(statuses: [.unreachable(silent), .unreachable(silent),
                                                       .progress(stopped: false, reasons: [], impressions: 0),
                                                       .ended(.completed, reasons: [], impressions: 1, message: nil)]))
        try await save("ipp://till/ipp/print", "Till", role: "receipt")
        let job = try await spooler(ScriptedPrinters(byURI: ["ipp://till/ipp/print": printer])).deliver(try await enqueue(role: "receipt").id)
        #expect(job.state == .completed)
        #expect(events.lines.filter { $0.contains("printer Till (role receipt) needs attention: \(silent)") }.count == 1)
        #expect(events.lines.filter { $0.contains("printer Till (role receipt) is ready again") }.count == 1)
    }
}

/// Validate-Job is asked once per kind of job at a printer, not per job.
@Suite(.timeLimit(.minutes(1))) struct ValidationOnceTests {
    @Test func theFirstReceiptAtAPrinterIsCheckedFirstAndTheNextAreNot() async throws {
        let site = try ScriptedDeliveryTests()
        let printer = ScriptedChannel(.init())
        try await site.save("ipp://receipt/ipp/print", "Receipt", role: "receipt")
        let spooler = site.spooler(ScriptedPrinters(byURI: ["ipp://receipt/ipp/print": printer]))
        for _ in 0..<3 {
            let job = try await spooler.deliver(try await site.enqueue(role: "receipt").id)
            #expect(job.state == .completed)
        }
        #expect(printer.validated == [true, false, false])
    }

    @Test func aKindThePrinterWouldChangeIsCheckedAgainNextTime() async throws {
        let site = try ScriptedDeliveryTests()
        // Took the first with its paper changed (under warn): not remembered as fine.
        let printer = ScriptedChannel(.init(submits: [.acceptedWithChanges(PrinterTicket(1), changed: ["media-col"]),
                                                      .accepted(PrinterTicket(2))]))
        try await site.save("ipp://receipt/ipp/print", "Receipt", role: "receipt")
        var configuration = SpoolerConfiguration(retry: RetryPolicy(initial: .milliseconds(1), maximum: .milliseconds(5)),
                                                 idlePoll: .milliseconds(5), followInterval: .milliseconds(5))
        configuration.mediaChanges = [try Role("receipt"): .warn]
        let spooler = Spooler(store: site.store, preparer: DocumentPreparer(catalog: TemplateCatalog()),
                              configuration: configuration, channels: ScriptedPrinters(byURI: ["ipp://receipt/ipp/print": printer]).channels)
        let first = try await spooler.deliver(try await site.enqueue(role: "receipt").id)
        #expect(first.state == .completed && first.stateReasons.contains("printer-changed-media-col"))
        _ = try await spooler.deliver(try await site.enqueue(role: "receipt").id)
        #expect(printer.validated == [true, true])
    }
}
