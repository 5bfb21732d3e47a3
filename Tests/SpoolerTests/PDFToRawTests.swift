import Foundation
import PrintModel
import PrinterLanguages
import Simulator
import Spooler
import Store
import Templates
import Testing

/// A PDF sent to a printer that does not take PDF (ESC/POS here) is drawn
/// by Ghostscript at the printer's resolution, cropped to its printable
/// width and cut after each page at that page's own length.
@Suite(.serialized, .timeLimit(.minutes(2))) struct PDFToRawTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("kioskprint-pdf-raw-\(UUID().uuidString)").path

    /// A PDF of 80 mm wide pages of the given lengths, each with a black bar 40 mm wide and 10 mm high at its top left.
    func pdf(lengths: [Double]) throws -> String {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = folder + "/receipt.pdf"
        let points = { (mm: Double) in mm / 25.4 * 72 }
        var program = ""
        for length in lengths {
            program += "<< /PageSize [\(points(80)) \(points(length))] >> setpagedevice "
                + "\(points(4)) \(points(length - 14)) \(points(40)) \(points(10)) rectfill showpage "
        }
        // Simulator's posix_spawn: Foundation's Process, waited on from two test threads at once, hung.
        let gs = try Subprocess.run("/usr/bin/gs", ["-q", "-sDEVICE=pdfwrite", "-o", path, "-c", program])
        #expect(gs.status == 0, "\(gs.errors)")
        return path
    }

    @Test func eachPageIsDrawnAtTheHeadsDotsAndCutAtItsOwnLength() async throws {
        let printer = try EscPosPrinterSimulator(configuration: .init(printableWidth: 576, dotsPerInch: 203))
        defer { printer.stop() }
        let store = try KioskStore(path: folder + "/kioskprint.sqlite")
        let capabilities = try ModelCatalog.profile(model: "TM-T20III").capabilities(name: "TM-T20III sim")
        #expect(!capabilities.documentFormats.contains("application/pdf"), "a raw printer takes no PDF")
        _ = try await store.assign(uri: printer.uri, serviceName: nil, capabilities: capabilities, to: try Role("receipt"), as: .primary)
        let queued = try await store.enqueue(name: "receipt.pdf", role: try Role("receipt"),
                                             content: .document(path: try pdf(lengths: [120, 60]), format: "pdf"))
        let spooler = Spooler(store: store, preparer: DocumentPreparer(catalog: TemplateCatalog()), configuration: SpoolLab.configuration) { _ in }
        let job = try await spooler.deliver(queued.id)
        #expect(job.state == .completed, "\(job.lastError ?? "")")

        let pieces = try await printer.pieces(atLeast: 2)
        #expect(pieces.count == 2)
        for (piece, millimetres) in zip(pieces, [120.0, 60.0]) {
            #expect(piece.bitmap.width == 576, "cropped to the printable width")
            #expect(abs(piece.lengthInDots - Int(millimetres / 25.4 * 203)) <= 2, "cut at the page's \(millimetres) mm: \(piece.lengthInDots) dots")
            // The bar 4 mm from the page's edge is at the printable area's left (the roll's 4 mm margin cropped away), 4 mm down.
            let row = Int(6.0 / 25.4 * 203), inside = Int(20.0 / 25.4 * 203), outside = Int(50.0 / 25.4 * 203)
            #expect(piece.bitmap[2, row] && piece.bitmap[inside, row] && !piece.bitmap[outside, row], "the bar lands where it was drawn")
        }
    }

    @Test func aPDFGhostscriptCannotDrawFailsTheJobSayingWhy() async throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = folder + "/broken.pdf"
        // Whole (it ends with %%EOF) and not encrypted, so intake takes it; its content is no PDF at all.
        try Data("%PDF-1.4\nthis is not a PDF body\n%%EOF\n".utf8).write(to: URL(fileURLWithPath: path))
        let capabilities = try ModelCatalog.profile(model: "TM-T20III").capabilities(name: "TM-T20III sim")
        #expect {
            try DocumentPreparer(catalog: TemplateCatalog()).prepare(file: path, for: capabilities)
        } throws: { error in
            let text = "\(error)"
            return text.contains("broken.pdf could not be drawn") && text.contains("Ghostscript")
        }
    }
}
