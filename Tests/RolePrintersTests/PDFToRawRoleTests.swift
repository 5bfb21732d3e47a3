import Foundation
import IPP
import PrintModel
import PrinterLanguages
import RolePrinters
import Simulator
import Spooler
import Templates
import Testing

/// A PDF a client sends a raw receipt role as `application/octet-stream`
/// (what a client does with a printer that does not list PDF) becomes a
/// role job that Ghostscript draws at the head's dots, cut at the page's length.
@Suite(.timeLimit(.minutes(1))) struct PDFToRawRoleTests {
    @Test func aPDFSentAsOctetStreamPrintsOnTheESCPOSPrinterCutAtItsLength() async throws {
        let printer = try EscPosPrinterSimulator(configuration: .init(printableWidth: 576, dotsPerInch: 203))
        defer { printer.stop() }
        let capabilities = try ModelCatalog.profile(model: "TM-T20III").capabilities(name: "Counter TM-T20III")
        var desk = try await RoleDesk.make(printer: capabilities, uri: printer.uri)
        let answer = await desk.send(0x0002, [.keywordOperation("document-format", "application/octet-stream", syntax: .mimeMediaType)],
                                     job: [], document: try Self.receiptPDF(in: desk.folder, millimetres: 100))
        #expect(answer.status == .ok, "\(answer.statusMessage)")
        let id = try #require(answer.attributes(in: .job).int("job-id"))
        let spooler = Spooler(store: desk.store, preparer: DocumentPreparer(catalog: TemplateCatalog())) { _ in }
        let job = try await spooler.deliver(JobID(rawValue: Int64(id)))
        #expect(job.state == .completed, "\(job.lastError ?? "")")
        let piece = try #require(try await printer.pieces(atLeast: 1).first)
        #expect(piece.bitmap.width == 576 && abs(piece.lengthInDots - 799) <= 2, "\(piece.bitmap.width) x \(piece.lengthInDots)")
    }

    @Test func pageRangesKeepOnlyThePagesAskedFor() async throws {
        let printer = try EscPosPrinterSimulator(configuration: .init(printableWidth: 576, dotsPerInch: 203))
        defer { printer.stop() }
        let capabilities = try ModelCatalog.profile(model: "TM-T20III").capabilities(name: "Counter TM-T20III")
        var desk = try await RoleDesk.make(printer: capabilities, uri: printer.uri)
        let pdf = try Self.receiptPDF(in: desk.folder, millimetres: [100, 60, 40])
        let format = IPPAttribute.keywordOperation("document-format", "application/octet-stream", syntax: .mimeMediaType)
        func ranges(_ values: ClosedRange<Int>...) -> IPPAttribute {
            IPPAttribute(name: "page-ranges", syntax: .rangeOfInteger, group: .job, values: values.map { .range($0) })
        }
        let answer = await desk.send(0x0002, [format], job: [ranges(2...2)], document: pdf)
        #expect(answer.status == .ok, "\(answer.statusMessage)")
        let id = try #require(answer.attributes(in: .job).int("job-id"))
        let spooler = Spooler(store: desk.store, preparer: DocumentPreparer(catalog: TemplateCatalog())) { _ in }
        #expect(try await spooler.deliver(JobID(rawValue: Int64(id))).state == .completed)
        let pieces = try await printer.pieces(atLeast: 1)
        #expect(pieces.count == 1 && abs(pieces[0].lengthInDots - 479) <= 2, "only page 2, 60 mm: \(pieces.map(\.lengthInDots))")
        // Pages the document does not have: refused, saying how many it has.
        let none = await desk.send(0x0002, [format], job: [ranges(5...6)], document: pdf)
        #expect(none.status == .documentFormatError && none.statusMessage.contains("has 3 pages"), "\(none.statusMessage)")
        // Not ascending: not a page-ranges value (RFC 8011 §5.2.7); Validate-Job refuses what Print-Job would leave out.
        let backwards = await desk.send(0x0004, [format], job: [ranges(3...3, 1...1)])
        #expect(backwards.status == .attributesOrValuesNotSupported && backwards.attributes(in: .unsupported).contains { $0.name == "page-ranges" },
                "\(backwards.status)")
    }

    @Test func aJPEGWithACutLengthIsCutThere() async throws {
        let printer = try EscPosPrinterSimulator(configuration: .init(printableWidth: 576, dotsPerInch: 203))
        defer { printer.stop() }
        let capabilities = try ModelCatalog.profile(model: "TM-T20III").capabilities(name: "Counter TM-T20III")
        var desk = try await RoleDesk.make(printer: capabilities, uri: printer.uri)
        // What cutLengthForPaper sends: the roll's width, the chosen length (50 mm).
        let mediaCol = IPPAttribute(name: "media-col", syntax: .collection, group: .job, values: [.collection([
            IPPAttribute(name: "media-size", syntax: .collection, values: [.collection([
                IPPAttribute(name: "x-dimension", syntax: .integer, values: [.integer(8000)]),
                IPPAttribute(name: "y-dimension", syntax: .integer, values: [.integer(5000)]),
            ])]),
        ])])
        let answer = await desk.send(0x0002, [.keywordOperation("document-format", "image/jpeg", syntax: .mimeMediaType)],
                                     job: [mediaCol], document: try RoleDesk.jpeg())
        #expect(answer.status == .ok, "\(answer.statusMessage)")
        let id = try #require(answer.attributes(in: .job).int("job-id"))
        let spooler = Spooler(store: desk.store, preparer: DocumentPreparer(catalog: TemplateCatalog())) { _ in }
        #expect(try await spooler.deliver(JobID(rawValue: Int64(id))).state == .completed)
        let piece = try #require(try await printer.pieces(atLeast: 1).first)
        #expect(abs(piece.lengthInDots - 400) <= 2, "cut at 50 mm: \(piece.lengthInDots) dots")
        // The 200 x 120 px image, one pixel a dot, at the top left: grey (dithered) inside it, blank below it.
        let inside = (0..<120).contains { y in (0..<200).contains { piece.bitmap[$0, y] } }
        let below = (130..<piece.lengthInDots).contains { y in (0..<576).contains { piece.bitmap[$0, y] } }
        #expect(inside && !below)
    }

    static func receiptPDF(in folder: String, millimetres lengths: [Double]) throws -> Data {
        let path = folder + "/pages.pdf"
        let points = { (mm: Double) in mm / 25.4 * 72 }
        let program = lengths.map { "<< /PageSize [\(points(80)) \(points($0))] >> setpagedevice 20 20 moveto 100 0 rlineto stroke showpage" }
        _ = try Subprocess.run("/usr/bin/gs", ["-q", "-sDEVICE=pdfwrite", "-o", path, "-c", program.joined(separator: " ")])
        return try Data(contentsOf: URL(fileURLWithPath: path))
    }

    static func receiptPDF(in folder: String, millimetres: Double) throws -> Data {
        let path = folder + "/receipt.pdf"
        let points = { (mm: Double) in mm / 25.4 * 72 }
        _ = try Subprocess.run("/usr/bin/gs", ["-q", "-sDEVICE=pdfwrite", "-dDEVICEWIDTHPOINTS=\(points(80))",
                                               "-dDEVICEHEIGHTPOINTS=\(points(millimetres))", "-dFIXEDMEDIA", "-o", path, "-c",
                                               "/Helvetica findfont 14 scalefont setfont 20 100 moveto (Total 12.50) show showpage"])
        return try Data(contentsOf: URL(fileURLWithPath: path))
    }
}
