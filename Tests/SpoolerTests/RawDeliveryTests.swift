import Foundation
import PrintModel
import PrinterLanguages
import Simulator
import Spooler
import Store
import Templates
import Testing

/// Jobs delivered by the real spooler, through the real raw channel and
/// link, to simulated ESC/POS and ZPL printers that decode what they receive
/// (written from the makers' references, independently of our encoders).
@Suite(.serialized, .timeLimit(.minutes(2))) struct RawDeliveryTests {
    let store: KioskStore
    let events = EventLog()

    init() throws {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("kioskprint-raw-\(UUID().uuidString)/kioskprint.sqlite").path
        store = try KioskStore(path: path)
    }

    /// Saves a raw printer of catalog `model` at `uri` under `role`.
    @discardableResult
    func save(_ uri: String, model: String, role: String, as place: RolePlace = .primary) async throws -> SavedPrinter {
        let capabilities = try ModelCatalog.profile(model: model).capabilities(name: "\(model) sim")
        return try await store.assign(uri: uri, serviceName: nil, capabilities: capabilities, to: try Role(role), as: place).assignment.printer
    }

    func spooler(_ configuration: SpoolerConfiguration = SpoolLab.configuration) -> Spooler {
        let events = events
        return Spooler(store: store, preparer: DocumentPreparer(catalog: TemplateCatalog()), configuration: configuration) {
            events.append($0)
        }
    }

    func enqueue(_ template: String = "receipt", role: String, opensDrawer: Bool = false) async throws -> PrintJob {
        let sample = BuiltInTemplates.all.first { $0.name == template }!.sampleData!
        return try await store.enqueue(name: "\(template) 4711", role: try Role(role),
                                       content: .template(name: template, dataJSON: sample), opensDrawer: opensDrawer)
    }

    /// What the preparer draws for `printer`: the bitmaps the head should print.
    func drawn(_ template: String = "receipt", for printer: SavedPrinter) throws -> PreparedDocument {
        let sample = BuiltInTemplates.all.first { $0.name == template }!.sampleData!
        return try DocumentPreparer(catalog: TemplateCatalog()).prepare(template: template, dataJSON: sample, jobName: "check",
                                                                        for: printer.capabilities)
    }

    @Test func aReceiptPrintsDotForDotCutAtItsLengthAndItsQRCodeScans() async throws {
        let printer = try EscPosPrinterSimulator(configuration: .init(printableWidth: 576, dotsPerInch: 203))
        defer { printer.stop() }
        let saved = try await save(printer.uri, model: "TM-T20III", role: "receipt")
        let queued = try await enqueue(role: "receipt")

        let job = try await spooler().deliver(queued.id)
        #expect(job.state == .completed, "\(job.lastError ?? "")")
        #expect(job.impressionsCompleted == 1)
        let piece = try #require(try await printer.pieces(atLeast: 1).first)
        let expected = try #require(try drawn(for: saved).rawPieces?.first)

        // The image the printer decoded is the one drawn, dot for dot, 576 dots wide.
        #expect(piece.bitmap.width == 576 && expected.width == 576)
        #expect(piece.bitmap.height == expected.height)
        var differing = 0
        for y in 0..<min(piece.bitmap.height, expected.height) {
            for x in 0..<576 where piece.bitmap[x, y] != expected.ink(x: x, y: y) { differing += 1 }
        }
        #expect(differing == 0)
        // Cut where the plan says, to the dot: the piece is as long as the job's cut length.
        let cut = try #require(job.cutLengths?.first)
        #expect(piece.lengthInDots == Length(hundredthsOfMillimetre: cut).dots(at: 203))
        #expect(piece.cut?.kind == .partial)
        // Epson's process ID confirmed the print; the status was asked before and after.
        #expect(printer.record.processIDResponses.count == 1)
        #expect(!printer.record.statusQueries.isEmpty)
        // A scanner reads the QR code off the printed dots.
        let png = FileManager.default.temporaryDirectory.appendingPathComponent("raw-receipt-\(UUID().uuidString).png").path
        try piece.bitmap.writePNG(to: png)
        let readings = try BarcodeReader.decode(pngAt: png)
        #expect(readings.contains { $0.format == "QRCode" && $0.text.hasPrefix("https://") }, "\(readings)")
    }

    @Test func aSaleReceiptOpensTheDrawerAfterItsCut() async throws {
        let printer = try EscPosPrinterSimulator()
        defer { printer.stop() }
        try await save(printer.uri, model: "TM-T20III", role: "receipt")
        let job = try await spooler().deliver(try await enqueue(role: "receipt", opensDrawer: true).id)
        #expect(job.state == .completed, "\(job.lastError ?? "")")
        let pulses = printer.record.drawerPulses
        #expect(pulses.count == 1 && pulses.first?.pin == 2 && pulses.first?.onMilliseconds == 50, "\(pulses)")
        #expect(printer.record.pieces.count == 1, "the pulse comes after the cut")
    }

    @Test func paperOutOnARawPrimaryFailsOverToAnIPPBackupAndBack() async throws {
        let lab = try await SpoolLab.make()
        let raw = try EscPosPrinterSimulator()
        defer { raw.stop() }
        let ipp = try await lab.printer(.receipt80mm, "Raw Backup")
        defer { ipp.stop() }
        _ = try await lab.store.assign(uri: raw.uri, serviceName: nil,
                                       capabilities: try ModelCatalog.profile(model: "TM-T20III").capabilities(name: "Raw Primary"),
                                       to: try Role("receipt"), as: .primary)
        try await lab.assign(ipp, to: "receipt", as: .backup)
        raw.update { $0.paperOut = true }

        let first = try await lab.spooler().deliver(try await lab.enqueue("receipt", role: "receipt", name: "During paper out").id)
        #expect(first.state == .completed && first.printer?.uri == ipp.uri, "\(first.lastError ?? "")")
        #expect(lab.events.lines.contains { $0.contains("Raw Primary reports media-empty") })
        #expect(raw.record.pieces.isEmpty)

        raw.update { $0.paperOut = false }
        let second = try await lab.spooler().deliver(try await lab.enqueue("receipt", role: "receipt", name: "After refill").id)
        #expect(second.state == .completed && second.printer?.uri == raw.uri, "\(second.lastError ?? "")")
        #expect(try await raw.pieces(atLeast: 1).count == 1)
    }

    @Test func paperNearItsEndIsAWarningAndTheReceiptStillPrints() async throws {
        let printer = try EscPosPrinterSimulator()
        defer { printer.stop() }
        try await save(printer.uri, model: "TM-T20III", role: "receipt")
        printer.update { $0.paperNearEnd = true }
        let job = try await spooler().deliver(try await enqueue(role: "receipt").id)
        #expect(job.state == .completed)
        #expect(events.lines.contains { $0.contains("warns of paper near its end (media-low)") })
    }

    @Test func aConnectionDroppedMidReceiptIsPrintedAgainMarkedReprint() async throws {
        let printer = try EscPosPrinterSimulator()
        defer { printer.stop() }
        try await save(printer.uri, model: "TM-T20III", role: "receipt")
        printer.dropConnection(afterBytes: 3000)
        let job = try await spooler().deliver(try await enqueue(role: "receipt").id)
        #expect(job.state == .completed, "\(job.lastError ?? "")")
        #expect(events.lines.contains { $0.contains("it is printed again, marked REPRINT (role rule reprint-marked)") })
        // Only the second, whole print was cut; it is longer by its banner.
        let pieces = try await printer.pieces(atLeast: 1)
        #expect(pieces.count == 1)
        #expect(try #require(job.cutLengths?.first) > 0)
    }

    @Test func aConnectionDroppedMidCouponHoldsItForTheOperator() async throws {
        let printer = try EscPosPrinterSimulator()
        defer { printer.stop() }
        try await save(printer.uri, model: "TM-T20III", role: "coupon")
        printer.dropConnection(afterBytes: 3000)
        let job = try await spooler().deliver(try await enqueue(role: "coupon").id)
        #expect(job.state == .held, "\(job.lastError ?? "")")
        #expect(job.lastError?.contains("kioskprint jobs retry \(job.id)") == true)
        #expect(printer.record.pieces.isEmpty, "held: not sent again")
    }

    @Test func aPrinterThatStopsReadingNeverHangsTheSpooler() async throws {
        let printer = try EscPosPrinterSimulator()
        defer { printer.stop() }
        try await save(printer.uri, model: "TM-T20III", role: "coupon")
        printer.stopReading()
        var configuration = SpoolLab.configuration
        configuration.requestTimeout = .seconds(2)
        // The status request itself cannot be written and answered: the printer reads as unreachable, and the job waits.
        let queued = try await enqueue(role: "coupon")
        let spooler = spooler(configuration)
        let task = Task { try await spooler.deliver(queued.id) }
        let waiting = try await pollForState(queued.id) { $0.state == .waiting }
        #expect(waiting.lastError?.isEmpty == false)
        task.cancel()
        _ = try? await task.value
    }

    @Test func aLabelPrintsOnAZebraAsZPLAtItsLength() async throws {
        let printer = try ZPLPrinterSimulator()
        defer { printer.stop() }
        try await save(printer.uri, model: "ZD420-203dpi", role: "label")
        let job = try await spooler().deliver(try await enqueue("shipping-label", role: "label").id)
        #expect(job.state == .completed, "\(job.lastError ?? "")")
        let label = try #require(try await printer.labels(atLeast: 1).first)
        let cut = try #require(job.cutLengths?.first)
        #expect(label.length == Length(hundredthsOfMillimetre: cut).dots(at: 203))
        #expect(label.bitmap.inkDots > 1000)
        let png = FileManager.default.temporaryDirectory.appendingPathComponent("raw-label-\(UUID().uuidString).png").path
        try label.bitmap.writePNG(to: png)
        let readings = try BarcodeReader.decode(pngAt: png)
        #expect(!readings.isEmpty, "the shipping label's barcodes scan off the ZPL graphic")
    }

    @Test func aSerialReceiptPrinterPrintsThroughItsLine() async throws {
        let printer = try EscPosPrinterSimulator.serialLine()
        defer { printer.stop() }
        let path = try #require(printer.devicePath)
        try await save("serial://\(path)?baud=115200", model: "TM-T20III", role: "receipt")
        let job = try await spooler().deliver(try await enqueue(role: "receipt").id)
        #expect(job.state == .completed, "\(job.lastError ?? "")")
        #expect(try await printer.pieces(atLeast: 1).count == 1)
    }

    @Test func aRawPrinterSavedWithoutItsModelSaysHowToSaveItAgain() async throws {
        _ = try await store.assign(uri: "socket://127.0.0.1:9", serviceName: nil,
                                   capabilities: PrinterCapabilities(name: "Mystery", kinds: [.receipt]), to: try Role("receipt"), as: .primary)
        let queued = try await enqueue(role: "receipt")
        let spooler = spooler()
        let task = Task { try await spooler.deliver(queued.id) }
        let waiting = try await pollForState(queued.id) { $0.state == .waiting }
        #expect(waiting.lastError?.contains("was saved without its model") == true, "\(waiting.lastError ?? "")")
        task.cancel()
        _ = try? await task.value
    }

    private func pollForState(_ id: JobID, until condition: @escaping @Sendable (PrintJob) -> Bool) async throws -> PrintJob {
        let store = store
        try await pollUntil("job \(id) to reach the expected state", within: .seconds(20)) { condition(try await store.job(id)) }
        return try await store.job(id)
    }
}
