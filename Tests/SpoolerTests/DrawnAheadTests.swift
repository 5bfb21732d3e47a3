import Foundation
import PrintModel
import Rendering
import Simulator
@testable import Spooler
import Store
import Templates
import Testing

/// A template job is drawn once, when it is taken in, for the role's
/// printer, and the spooler sends that drawing; it draws again only for
/// another printer. Real ippeveprinter, real database. The template file is
/// changed between intake and sending, so the page that arrives shows which
/// drawing was sent.
@Suite(.serialized, .timeLimit(.minutes(2))) struct DrawnAheadTests {
    /// One short line, then twenty: the cut length tells the versions apart.
    static let shortNote = #"<template page="roll"><text>Version one</text></template>"#
    static let longNote = "<template page=\"roll\">" + String(repeating: "<text>Version two</text>", count: 20) + "</template>"

    struct Site {
        let lab: SpoolLab
        let printer: RunningPrinter
        let folder: URL
        let preparer: DocumentPreparer
        let intake: JobIntake

        static func make(_ label: String, drawsAhead: Bool) async throws -> Site {
            let lab = try await SpoolLab.make()
            let printer = try await lab.printer(.receipt80mm, label)
            try await lab.assign(printer, to: "receipt")
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("kioskprint-ahead-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let catalog = TemplateCatalog(folders: [folder.path])
            let preparer = DocumentPreparer(catalog: catalog, drawnAhead: drawsAhead ? DrawnDocuments() : nil)
            return Site(lab: lab, printer: printer, folder: folder, preparer: preparer,
                        intake: JobIntake(store: lab.store, catalog: catalog, preparer: preparer))
        }

        func write(_ markup: String) throws {
            try markup.write(to: folder.appendingPathComponent("note.xml"), atomically: true, encoding: .utf8)
        }

        func spooler() -> Spooler {
            let events = lab.events
            return Spooler(store: lab.store, preparer: preparer, configuration: SpoolLab.configuration) { events.append($0) }
        }

        /// The page length the printer received, in dots.
        func receivedHeight() async throws -> Int {
            let received = try #require(try await printer.receivedJobs(atLeast: 1).last)
            return Int(try #require(try RasterReader.read(data: received.document()).first).header.height)
        }
    }

    @Test func theJobIsSentAsItWasDrawnWhenTakenIn() async throws {
        let site = try await Site.make("Ahead Same", drawsAhead: true)
        defer { site.printer.stop() }
        try site.write(Self.shortNote)
        let job = try await site.intake.queueTemplate("note", dataJSON: "{}", dataFile: "note.json", role: try Role("receipt"))
        #expect(site.preparer.drawnAhead?.count.documents == 1)

        try site.write(Self.longNote)
        let done = try await site.spooler().deliver(job.id)
        #expect(done.state == .completed, "\(done.lastError ?? "")")
        #expect(site.preparer.drawnAhead?.count.documents == 0, "the drawing is let go once sent")
        let height = try await site.receivedHeight()
        #expect(height < 300, "the short note accepted at intake was printed, not the file as it is now: \(height) dots")
    }

    @Test func aLongDocumentIsNotDrawnAheadButLeftToThePieceByPieceDrawing() async throws {
        let site = try await Site.make("Ahead Long", drawsAhead: true)
        defer { site.printer.stop() }
        // About 9 m of receipt: 5.7 MB of ink at 203 dpi, over the 4 MB a drawing ahead may hold.
        try site.write("<template page=\"roll\">" + String(repeating: "<text>Line</text>", count: 2_000) + "</template>")
        _ = try await site.intake.queueTemplate("note", dataJSON: "{}", dataFile: "note.json", role: try Role("receipt"))
        #expect(site.preparer.drawnAhead?.count.documents == 0)
        try site.write(Self.shortNote)
        _ = try await site.intake.queueTemplate("note", dataJSON: "{}", dataFile: "note.json", role: try Role("receipt"))
        #expect(site.preparer.drawnAhead?.count.documents == 1, "a receipt is still drawn ahead")
    }

    @Test func withoutDrawingAheadTheSpoolerDrawsTheFileAsItIsNow() async throws {
        let site = try await Site.make("Ahead Off", drawsAhead: false)
        defer { site.printer.stop() }
        try site.write(Self.shortNote)
        let job = try await site.intake.queueTemplate("note", dataJSON: "{}", dataFile: "note.json", role: try Role("receipt"))
        try site.write(Self.longNote)
        #expect(try await site.spooler().deliver(job.id).state == .completed)
        #expect(try await site.receivedHeight() > 600)
    }

    @Test func aPrinterWhosePaperChangedGetsAFreshDrawing() async throws {
        let site = try await Site.make("Ahead Changed", drawsAhead: true)
        defer { site.printer.stop() }
        try site.write(Self.shortNote)
        let job = try await site.intake.queueTemplate("note", dataJSON: "{}", dataFile: "note.json", role: try Role("receipt"))
        try site.write(Self.longNote)
        // The printer is checked again and now reports a longer shortest cut: not the paper it was drawn for.
        var saved = try #require(try await site.lab.store.assignments(for: try Role("receipt")).first?.printer)
        saved.capabilities.rolls[0].cutLengths = .millimetres(30)...saved.capabilities.rolls[0].cutLengths.upperBound
        try await site.lab.store.recordContact(printerID: saved.id, capabilities: saved.capabilities)

        #expect(try await site.spooler().deliver(job.id).state == .completed)
        #expect(try await site.receivedHeight() > 600, "drawn again for the printer as it is now")
    }

    @Test func theShelfKeepsItsBoundsAndServesOnlyItsPrinter() async throws {
        let shelf = DrawnDocuments(limits: .init(totalBytes: 250, documentBytes: 100, documents: 10))
        let printer = SavedPrinter(id: 7, uri: "ipp://127.0.0.1:1/ipp/print", uuid: nil, serviceName: nil,
                                   capabilities: PrinterCapabilities(name: "Shelf Receipt"), addedAt: Date(), contactedAt: Date())
        let roll = PageGeometry(roll: RollMedia(width: .millimetres(80), cutLengths: .millimetres(25)...Length.millimetres(300)),
                                resolution: Resolution(203))
        func document(_ bytes: Int) -> PreparedDocument {
            PreparedDocument(data: Data(count: bytes), format: .pwgRaster, media: roll, cutLengths: [], finishings: [], warnings: [])
        }
        func keep(_ bytes: Int, _ id: Int64) {
            shelf.expect(job: JobID(id), printer: printer)
            shelf.deliver(document(bytes), job: JobID(id))
        }
        keep(101, 1)
        #expect(shelf.count.documents == 0, "larger than one drawing may be: drawn at send time instead")
        for id in 2...4 { keep(100, Int64(id)) }
        #expect(shelf.count.documents == 2 && shelf.count.bytes == 200, "the oldest went to stay within 250 bytes")
        #expect(await shelf.take(job: JobID(2), for: printer) == nil)
        var other = printer
        other.id = 8
        #expect(await shelf.take(job: JobID(3), for: other) == nil, "drawn for printer 7, not 8")
        #expect(await shelf.take(job: JobID(3), for: printer) == nil, "and let go after that")
        #expect(await shelf.take(job: JobID(4), for: printer)?.data.count == 100)
        #expect(shelf.count.documents == 0 && shelf.count.bytes == 0)
    }

    @Test func aSpoolerThatComesBeforeTheDrawingWaitsForIt() async throws {
        let shelf = DrawnDocuments()
        let printer = SavedPrinter(id: 7, uri: "ipp://127.0.0.1:1/ipp/print", uuid: nil, serviceName: nil,
                                   capabilities: PrinterCapabilities(name: "Shelf Receipt"), addedAt: Date(), contactedAt: Date())
        let roll = PageGeometry(roll: RollMedia(width: .millimetres(80), cutLengths: .millimetres(25)...Length.millimetres(300)),
                                resolution: Resolution(203))
        shelf.expect(job: JobID(9), printer: printer)
        let taking = Task { await shelf.take(job: JobID(9), for: printer) }
        // The spooler is parked on the drawing being made (not answered nil at once).
        try await pollUntil("the spooler to wait for the drawing", within: .seconds(5)) { shelf.waitingSpoolers == 1 }
        shelf.deliver(PreparedDocument(data: Data(count: 42), format: .pwgRaster, media: roll, cutLengths: [],
                                       finishings: [], warnings: []), job: JobID(9))
        #expect(await taking.value?.data.count == 42)
        #expect(shelf.count.documents == 0)
    }
}
