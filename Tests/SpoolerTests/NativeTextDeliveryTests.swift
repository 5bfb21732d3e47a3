import Foundation
import PrintModel
import PrinterLanguages
import RawPrinters
import Rendering
import Simulator
import Spooler
import Store
import Templates
import Testing

/// `delivery = "native"`: the real spooler sends a receipt's text to an
/// ESC/POS printer as characters in its code pages, read back by the
/// simulator (written from Epson's reference): every line arrives at the
/// row and column the drawing planned, in its style, the drawn rest
/// arrives dot for dot, and the piece is cut at the planned length.
@Suite(.serialized, .timeLimit(.minutes(2))) struct NativeTextDeliveryTests {
    let store: KioskStore
    let events = EventLog()

    init() throws {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("kioskprint-native-\(UUID().uuidString)/kioskprint.sqlite").path
        store = try KioskStore(path: path)
    }

    func preparer(_ delivery: RawDelivery?) throws -> DocumentPreparer {
        let role = try Role("receipt")
        return DocumentPreparer(catalog: TemplateCatalog(), rawDelivery: delivery.map { [role: $0] } ?? [:])
    }

    @discardableResult
    func save(_ uri: String, model: String = "TM-T20III") async throws -> SavedPrinter {
        let capabilities = try ModelCatalog.profile(model: model).capabilities(name: "\(model) sim")
        return try await store.assign(uri: uri, serviceName: nil, capabilities: capabilities, to: try Role("receipt"), as: .primary)
            .assignment.printer
    }

    func deliver(_ template: String, delivery: RawDelivery?) async throws -> PrintJob {
        let sample = BuiltInTemplates.all.first { $0.name == template }!.sampleData!
        let queued = try await store.enqueue(name: "\(template) 4711", role: try Role("receipt"),
                                             content: .template(name: template, dataJSON: sample))
        let events = events
        let spooler = Spooler(store: store, preparer: try preparer(delivery), configuration: SpoolLab.configuration) { events.append($0) }
        return try await spooler.deliver(queued.id)
    }

    /// What the spooler drew for `printer`: the raster part and the printer's lines of the first piece.
    func drawn(_ template: String, for printer: SavedPrinter, delivery: RawDelivery?) throws -> (MonoBitmap, [DeviceTextLine]) {
        let sample = BuiltInTemplates.all.first { $0.name == template }!.sampleData!
        let preparer = try preparer(delivery)
        let prepared = try preparer.prepare(template: template, dataJSON: sample, jobName: "check", for: printer.capabilities,
                                            deviceText: preparer.deviceText(role: try Role("receipt"), printer: printer))
        return (try #require(prepared.rawPieces?.first), prepared.rawText.first ?? [])
    }

    /// The simulator's text lines as the planned lines they should be: rows
    /// at the cells' top, bytes read in the code page `ESC t` selected.
    /// A run the printer continued in another code page (`ESC t` between its
    /// characters) is joined to the one before it.
    static func planned(_ printed: [EscPosTextLine]) -> [(row: Int, runs: [DeviceTextRun])] {
        printed.map { line in
            var runs: [DeviceTextRun] = []
            for run in line.runs {
                let next = DeviceTextRun(x: run.x, text: EscPosCodePage(number: run.codePage)?.decode(run.bytes) ?? "?", bold: run.bold,
                                         widthScale: run.widthScale, heightScale: run.heightScale)
                if var last = runs.last, last.bold == next.bold, last.widthScale == next.widthScale,
                   last.heightScale == next.heightScale, last.x + last.width(in: .escPosFontA) == next.x {
                    last.text += next.text
                    runs[runs.count - 1] = last
                } else {
                    runs.append(next)
                }
            }
            return (line.row, runs)
        }
    }

    @Test("The receipt's text arrives as characters where the drawing put it; the rest dot for dot; the cut exact",
          arguments: ["receipt", "receipt-ru"])
    func nativeReceipt(template: String) async throws {
        let printer = try EscPosPrinterSimulator()
        defer { printer.stop() }
        let saved = try await save(printer.uri)
        let job = try await deliver(template, delivery: .native)
        #expect(job.state == .completed, "\(job.lastError ?? "")")
        let piece = try #require(try await printer.pieces(atLeast: 1).first)
        let (bitmap, lines) = try drawn(template, for: saved, delivery: .native)
        #expect(lines.count >= 20, "the receipt's lines of text went as text: \(lines.count)")

        let printed = Self.planned(piece.text)
        #expect(printed.map(\.row) == lines.map { $0.top + $0.cellTop })
        for (got, wanted) in zip(printed, lines) { #expect(got.runs == wanted.runs, "row \(got.row)") }
        #expect(printed.flatMap(\.runs).map(\.text).contains { $0.contains("Crème fraîche") || $0.contains("капучино") })

        #expect(piece.bitmap.height == bitmap.height)
        var differing = 0
        for y in 0..<min(piece.bitmap.height, bitmap.height) {
            for x in 0..<bitmap.width where piece.bitmap[x, y] != bitmap.ink(x: x, y: y) { differing += 1 }
        }
        #expect(differing == 0, "\(differing) dots of the drawn part differ")
        let cut = try #require(job.cutLengths?.first)
        #expect(piece.lengthInDots == Length(hundredthsOfMillimetre: cut).dots(at: 203), "cut where the plan says, to the dot")
        let record = printer.record
        #expect(record.problems.isEmpty && record.unknownCommands.isEmpty, "\(record.problems) \(record.unknownCommands)")
        #expect(record.bytesReceived < 20_000, "\(record.bytesReceived) bytes")
    }

    @Test("A raster role's receipt carries no text, and its piece is as long as the native one")
    func rasterKeepsEverythingDrawn() async throws {
        let printer = try EscPosPrinterSimulator()
        defer { printer.stop() }
        try await save(printer.uri)
        let raster = try await deliver("receipt", delivery: .raster)
        let native = try await deliver("receipt", delivery: .native)
        #expect(raster.state == .completed && native.state == .completed)
        let pieces = try await printer.pieces(atLeast: 2)
        #expect(pieces[0].text.isEmpty && !pieces[1].text.isEmpty)
        #expect(pieces[0].lengthInDots == pieces[1].lengthInDots)
        #expect(raster.cutLengths == native.cutLengths)
    }

    @Test("auto sends text as text on a serial line at 115200 baud, and raster to a socket printer")
    func autoChoosesByTheLink() async throws {
        let serial = try EscPosPrinterSimulator.serialLine()
        defer { serial.stop() }
        let onSerial = try await save(serial.endpoint.uri(baud: 115_200))
        let socket = try EscPosPrinterSimulator()
        defer { socket.stop() }
        let onSocket = try await save(socket.uri)
        let preparer = try preparer(nil)
        let role = try Role("receipt")
        guard case .leftToPrinter = preparer.deviceText(role: role, printer: onSerial) else {
            Issue.record("auto left nothing to the printer's font on a 115200 baud serial line")
            return
        }
        guard case .none = preparer.deviceText(role: role, printer: onSocket) else {
            Issue.record("auto sent text as text to a socket printer")
            return
        }
        var slow = onSerial
        slow.uri = serial.endpoint.uri(baud: 230_400)
        guard case .none = preparer.deviceText(role: role, printer: slow) else {
            Issue.record("auto sent text as text on a serial line faster than 115200 baud")
            return
        }
        // A Star or ZPL printer gets raster whatever the role says: no printer font is known for it.
        var star = onSerial
        star.capabilities = try ModelCatalog.profile(model: "TSP143").capabilities(name: "star")
        guard case .none = try self.preparer(.native).deviceText(role: role, printer: star) else {
            Issue.record("native text was planned for a Star printer")
            return
        }
    }

    @Test("A printer outside Epson's TM series prints only PC437's characters as text; the rest is drawn")
    func otherPrintersGetPC437Only() async throws {
        var profile = try ModelCatalog.profile(model: "TM-T20III")
        profile.make = "Generic"
        let options = try #require(profile.commandLanguage.deviceTextOptions)
        #expect(options.prints("Cafe 12.50"))
        #expect(options.prints("Café"), "é is in PC437")
        #expect(!options.prints("2 ×"), "× is not in PC437")
        #expect(!options.prints("Капучино"))
        let epson = try #require(try ModelCatalog.profile(model: "TM-T20III").commandLanguage.deviceTextOptions)
        #expect(epson.prints("2 ×") && epson.prints("Капучино") && epson.prints("€ 3.50"))
    }
}
