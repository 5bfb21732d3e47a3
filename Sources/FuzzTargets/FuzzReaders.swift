import Agent
import KioskConfiguration
import Foundation
import PrinterLanguages
import PosMarkup
import IPP
import PrintModel
import Rendering
import Spooler
import Templates

/// The readers `FuzzTarget` drives, each as the product calls it.
enum FuzzReaders {
    static func jobJSON(_ data: Data) {
        _ = try? TemplateData(json: data, file: "fuzz.json")
    }

    /// The first line is the data (JSON), the rest the markup: both come from outside.
    static func template(_ data: Data) {
        let split = data.firstIndex(of: UInt8(ascii: "\n")) ?? data.startIndex
        let json = data[data.startIndex..<split], markup = data[split...].dropFirst()
        guard let text = String(data: markup, encoding: .utf8),
              let document = try? TemplateParser.parse(text, file: "fuzz.xml") else { return }
        let values = (try? TemplateData(json: Data(json), file: "fuzz.json")) ?? .object([:])
        let (bound, _) = DataBinder.bindReporting(document, data: values)
        let page = MediaSelection.preview(for: bound.page, width: .millimetres(80), dpi: 203)
        _ = try? DocumentRenderer(media: page).layOut(bound)
    }

    /// As `template`, then drawn on a TM-T20III's 80 mm roll with its text
    /// left to Font A, cut into raw pieces as the spooler cuts them, and
    /// encoded. A line the planner leaves to the printer that the encoder
    /// refuses would be a job refused at send time: that is a finding.
    static func nativeText(_ data: Data) {
        let split = data.firstIndex(of: UInt8(ascii: "\n")) ?? data.startIndex
        let json = data[data.startIndex..<split], markup = data[split...].dropFirst()
        guard let text = String(data: markup, encoding: .utf8), text.utf8.count <= 4096,
              let job = try? TemplateJob(source: TemplateSource(name: "fuzz", origin: .builtIn, text: text, file: "fuzz.xml"),
                                         dataJSON: Data(json), dataFile: "fuzz.json"),
              let language = nativePrinter.commandLanguage as? EscPosLanguage, let options = language.deviceTextOptions,
              let media = try? MediaSelection.media(for: job.document.page, on: nativePrinter.capabilities(name: "fuzz")),
              var laidOut = try? job.layOut(on: media),
              // A piece is drawn whole: past a couple of metres of paper the input only costs time.
              laidOut.cutLengths.reduce(0, { $0 + $1.dots(at: 203) }) <= 20_000 else { return }
        let pieces: [(bitmap: MonoBitmap, text: [DeviceTextLine])]
        do {
            pieces = try laidOut.renderEach(deviceText: .leftToPrinter(options)) { page in
                try DocumentPreparer.rawPiece(page, media: media, printer: "fuzz")
            }
        } catch { return }
        do {
            _ = try language.encode(RawJob(pieces: pieces.map(\.bitmap), cut: .partial, deviceText: pieces.map(\.text)))
        } catch {
            preconditionFailure("a line left to the printer's font was refused by the encoder: \(error)\n\(text.prefix(2000))")
        }
    }

    /// The printer `native-text` draws for.
    static let nativePrinter = try! ModelCatalog.profile(model: "TM-T20III")

    static func configuration(_ data: Data) {
        guard let text = String(data: data, encoding: .utf8) else { return }
        _ = try? ConfigurationFile.parse(text, source: "fuzz.toml", relativeTo: FileManager.default.temporaryDirectory.path)
    }

    static func image(_ data: Data, png: Bool) {
        let bytes = [UInt8](data)
        if png { _ = try? PNGDecoder.decode(bytes, name: "fuzz.png") } else { _ = try? JPEGDecoder.decode(bytes, name: "fuzz.jpg") }
    }

    /// The PDF check reads a file: the bytes are written to one first.
    static func pdf(_ data: Data) {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("kioskprint-fuzz-\(getpid()).pdf").path
        guard FileManager.default.createFile(atPath: path, contents: data) else { return }
        defer { unlink(path) }
        _ = try? PrinterReadyFile.check(path: path)
    }

    static func envelope(_ data: Data) {
        _ = try? JobEnvelope(json: data, file: "fuzz.json")
    }

    /// The bytes describe attributes (`AttributeBytes`); the capabilities
    /// made of them give a page for each built-in template, laid out there.
    static func printerAttributes(_ data: Data) {
        let capabilities = PrinterCapabilities(ippAttributes: AttributeBytes.attributes(from: [UInt8](data)))
        for source in builtIns {
            guard let page = try? source.parse().page,
                  let media = try? MediaSelection.media(for: page, on: capabilities) else { continue }
            _ = TemplateCheck.run(source, media: media)
        }
    }

    /// An IPP message read as a role printer's listener reads it; what was
    /// read, written back with the server's encoder, must read again: a reply
    /// built from a client's own attributes is never one the client cannot read.
    static func ippMessage(_ data: Data) {
        guard let (message, offset) = try? IPPMessage.decode([UInt8](data)) else { return }
        precondition(offset <= data.count, "the document cannot start past the end of the bytes")
        let again = try? IPPMessage.decode(message.encoded())
        precondition(again != nil, "an IPP message read by libcups and written back by IPPMessage.encoded() does not read again")
        precondition(again?.message.groups.count == message.groups.count, "the groups changed in the round trip")
    }

    /// A raster document's pages; each, handed on as PGM, reads back the same size.
    static func raster(_ data: Data) {
        guard let pages = try? RasterDocument.pages(data, name: "fuzz.pwg") else { return }
        for page in pages {
            let again = try? GrayImage.decode(data: PGMCodec.encode(page.image), name: "fuzz.pgm")
            precondition(again?.width == page.image.width && again?.height == page.image.height, "a page read does not survive PGM")
        }
    }

    /// The first byte picks the language (odd: ZPL) and the chunk size the
    /// rest arrives in; no byte is made up: what comes out as print data, with
    /// what is held at the end, is never more than what went in.
    /// The first byte picks the language (its low bits) and the size of the
    /// pieces the answer arrives in (the rest); the answer is read as the
    /// session reads it: complete once `statusAnswerLength` says so, then
    /// its status and printed count.
    static func rawStatusAnswer(_ data: Data) {
        guard let first = data.first else { return }
        let languages = PrinterLanguage.allCases
        let language = languages[Int(first) % languages.count]
        let profile = RawProfile(model: "fuzz", language: language, paperWidth: .millimetres(80), printableDots: 576, dpi: 203,
                                 cutter: .partial, minimumCut: .millimetres(25), maximumCut: .millimetres(3000), source: "fuzz")
        let reader = profile.commandLanguage
        let bytes = Array(data.dropFirst()), chunk = Int(first >> 3) + 1
        var received: [UInt8] = []
        for start in stride(from: 0, to: bytes.count, by: chunk) {
            received += bytes[start..<min(bytes.count, start + chunk)]
            guard let length = reader.statusAnswerLength(in: received) else { continue }
            precondition(length <= received.count, "an answer longer than what came")
            let answer = Array(received.prefix(length))
            _ = try? reader.status(from: answer)
            _ = reader.printedCount(in: answer)
            received.removeFirst(length)
        }
    }

    static func rawHostStream(_ data: Data) {
        guard let first = data.first else { return }
        let bytes = Array(data.dropFirst()), chunk = Int(first >> 1) + 1
        let answers = EscPosStatusAnswers(status: RawPrinterStatus(paperEnd: first & 2 != 0))
        var out = 0
        if first & 1 == 1 {
            var stream = ZPLHostStream()
            for start in stride(from: 0, to: bytes.count, by: chunk) {
                for case .data(let part) in stream.feed(bytes[start..<min(bytes.count, start + chunk)]) { out += part.count }
            }
            out += stream.finish().count
        } else {
            var stream = EscPosHostStream()
            for start in stride(from: 0, to: bytes.count, by: chunk) {
                for piece in stream.feed(bytes[start..<min(bytes.count, start + chunk)]) {
                    switch piece {
                    case .data(let part): out += part.count
                    case .ask(let ask): _ = answers.answer(ask)
                    }
                }
            }
            out += stream.finish().count
        }
        precondition(out <= bytes.count, "the host stream made up bytes")
    }

    /// A request that reads becomes markup the template parser takes (ReceiptDrawing
    /// never writes what it refuses), laid out on an 80 mm roll as the spooler would.
    static func receiptMarkup(_ data: Data, read: (Data) throws(PosMarkupError) -> [ReceiptCommand]) {
        guard let commands = try? read(data) else { return }
        let source = ReceiptDrawing.source(commands, name: "fuzz.xml")
        let document: LayoutDocument
        do { document = try TemplateParser.parse(source.text, file: "fuzz.xml") } catch {
            preconditionFailure("ReceiptDrawing wrote markup the template parser refuses: \(error)\n\(source.text.prefix(2000))")
        }
        let page = MediaSelection.preview(for: document.page, width: .millimetres(80), dpi: 203)
        _ = try? DocumentRenderer(media: page).layOut(document)
    }

    /// A roll template and a fixed-size one: every kind of page a printer's figures must give.
    static let builtIns = BuiltInTemplates.all.filter { ["receipt", "shipping-label"].contains($0.name) }
}
