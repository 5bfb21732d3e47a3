import Foundation
import PrintModel
import PrinterLanguages
import RawPrinters
import Simulator
import Spooler
import Store
import Templates
import Testing

/// Jobs delivered by the real spooler and raw channel to simulated Star
/// printers, each in its own language (Star Graphic on a TSP143III, Star
/// Line on a TSP654II, StarPRNT on an mC-Print3), decoded by a simulator
/// written from Star's specifications: the receipt comes back dot for dot,
/// cut at the planned length, and every code on it scans.
@Suite(.serialized, .timeLimit(.minutes(2))) struct StarDeliveryTests {
    let store: KioskStore
    let events = EventLog()

    init() throws {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("kioskprint-star-\(UUID().uuidString)/kioskprint.sqlite").path
        store = try KioskStore(path: path)
    }

    @discardableResult
    func save(_ uri: String, model: String, role: String = "receipt") async throws -> SavedPrinter {
        let capabilities = try ModelCatalog.profile(model: model).capabilities(name: "\(model) sim")
        return try await store.assign(uri: uri, serviceName: nil, capabilities: capabilities, to: try Role(role), as: .primary)
            .assignment.printer
    }

    func spooler() -> Spooler {
        let events = events
        return Spooler(store: store, preparer: DocumentPreparer(catalog: TemplateCatalog()), configuration: SpoolLab.configuration) {
            events.append($0)
        }
    }

    func enqueue(_ template: String = "receipt", role: String = "receipt", opensDrawer: Bool = false) async throws -> PrintJob {
        let sample = BuiltInTemplates.all.first { $0.name == template }!.sampleData!
        return try await store.enqueue(name: "\(template) 4711", role: try Role(role),
                                       content: .template(name: template, dataJSON: sample), opensDrawer: opensDrawer)
    }

    func drawn(_ template: String, for printer: SavedPrinter) throws -> MonoBitmap {
        let sample = BuiltInTemplates.all.first { $0.name == template }!.sampleData!
        let prepared = try DocumentPreparer(catalog: TemplateCatalog()).prepare(template: template, dataJSON: sample, jobName: "check",
                                                                                for: printer.capabilities)
        return try #require(prepared.rawPieces?.first)
    }

    func scans(_ bitmap: DotBitmap) throws -> [BarcodeReader.Reading] {
        let png = FileManager.default.temporaryDirectory.appendingPathComponent("star-\(UUID().uuidString).png").path
        defer { try? FileManager.default.removeItem(atPath: png) }
        try bitmap.writePNG(to: png)
        return try BarcodeReader.decode(pngAt: png)
    }

    @Test("The built-in receipt, dot for dot and cut at its length, in each Star language", arguments: [
        ("TSP143", PrinterLanguage.starGraphic, "receipt"), ("TSP654", .starLine, "receipt"), ("mC-Print3", .starPRNT, "receipt"),
        ("TSP143", .starGraphic, "receipt-ru"),
    ])
    func receiptDotForDot(model: String, language: PrinterLanguage, template: String) async throws {
        let printer = try StarPrinterSimulator(configuration: .init(emulation: language, printableWidth: 576))
        defer { printer.stop() }
        let saved = try await save(printer.uri, model: model)
        #expect(saved.capabilities.rawProfile?.language == language)

        let job = try await spooler().deliver(try await enqueue(template).id)
        #expect(job.state == .completed, "\(job.lastError ?? "")")
        let piece = try #require(try await printer.pieces(atLeast: 1).first)
        let expected = try drawn(template, for: saved)
        #expect(piece.bitmap.width == 576 && expected.width == 576)
        #expect(piece.bitmap.height == expected.height)
        var differing = 0
        for y in 0..<min(piece.bitmap.height, expected.height) {
            for x in 0..<576 where piece.bitmap[x, y] != expected.ink(x: x, y: y) { differing += 1 }
        }
        #expect(differing == 0, "\(differing) dots differ")
        let cut = try #require(job.cutLengths?.first)
        #expect(piece.lengthInDots == Length(hundredthsOfMillimetre: cut).dots(at: 203), "cut where the plan says, to the dot")
        #expect(piece.cut?.kind == .partial)
        let record = printer.record
        #expect(record.problems.isEmpty && record.unknownCommands.isEmpty, "\(record.problems) \(record.unknownCommands)")
        #expect(record.statusRequests >= 3, "asked before the job (readiness, the ETB count) and after it")
        #expect(job.stateReasons.contains("etb-confirmed"), "the printer's ETB count moved: \(job.stateReasons)")

        // Every code the drawing holds scans off the Star's paper, with the same text.
        let drawing = DotBitmap(width: expected.width, height: expected.height, packed: expected.rows)
        let fromDrawing = try scans(drawing), fromPaper = try scans(piece.bitmap)
        #expect(!fromPaper.isEmpty && fromPaper == fromDrawing, "paper: \(fromPaper), drawing: \(fromDrawing)")
    }

    @Test("The drawer opens after the cut, through each language's own command", arguments: [
        ("TSP143", PrinterLanguage.starGraphic, "ESC * r D 1"), ("TSP654", .starLine, "BEL"), ("mC-Print3", .starPRNT, "BEL"),
    ])
    func drawerAfterTheCut(model: String, language: PrinterLanguage, command: String) async throws {
        let printer = try StarPrinterSimulator(configuration: .init(emulation: language))
        defer { printer.stop() }
        try await save(printer.uri, model: model)
        let job = try await spooler().deliver(try await enqueue(opensDrawer: true).id)
        #expect(job.state == .completed, "\(job.lastError ?? "")")
        let record = printer.record
        #expect(record.drawerPulses.map(\.pin) == [2] && record.drawerPulses.first?.onMilliseconds == 50, "\(record.drawerPulses)")
        let cutAt = try #require(record.commands.lastIndex { $0.hasPrefix("ESC FF") || $0.hasPrefix("ESC d") })
        #expect(record.commands.lastIndex(of: command).map { $0 > cutAt } == true, "\(record.commands.suffix(6))")
    }

    @Test func paperOutIsReadFromStarsAutomaticStatusAndNothingIsSent() async throws {
        let printer = try StarPrinterSimulator(configuration: .init(emulation: .starGraphic))
        defer { printer.stop() }
        try await save(printer.uri, model: "TSP143")
        printer.update { $0.paperOut = true }
        let queued = try await enqueue()
        let spooler = spooler()
        let task = Task { try await spooler.deliver(queued.id) }
        let store = store
        try await pollUntil("the job to wait for paper", within: .seconds(20)) { try await store.job(queued.id).state == .waiting }
        #expect(events.lines.contains { $0.contains("TSP143 sim reports media-empty") }, "\(events.lines)")
        #expect(printer.record.pieces.isEmpty && printer.record.statusRequests >= 1)
        task.cancel()
        _ = try? await task.value
    }

    /// A printer that stops with the job in it (the cover opened) holds the
    /// job's ETB: the count does not move, so the job is not counted as
    /// printed; once the cover closes the count moves, and a send confirms.
    @Test func anETBHeldByAStoppedPrinterLeavesTheJobUnconfirmed() async throws {
        let printer = try StarPrinterSimulator(configuration: .init(emulation: .starPRNT))
        defer { printer.stop() }
        let profile = try ModelCatalog.profile(model: "mC-Print3")
        let session = RawPrinterSession(uri: try RawPrinterURI(parsing: printer.uri), profile: profile, name: "mC-Print3 sim")
        let bytes = try profile.commandLanguage.encode(RawJob(pieces: [MonoBitmap(picture: ["#."])!], cut: .partial))
        printer.update { $0.coverOpen = true }
        guard case .unconfirmed(let why) = await session.send(bytes) else { Issue.record("a held ETB confirmed the job"); return }
        #expect(why.contains("cover-open"), "\(why)")
        printer.update { $0.coverOpen = false }
        guard case .printed(let notes) = await session.send(bytes) else { Issue.record("not confirmed once it printed"); return }
        #expect(notes.contains("etb-confirmed"))
        #expect(printer.record.pieces.count == 1, "the first job's bytes were skipped while the cover was open")
    }
}
