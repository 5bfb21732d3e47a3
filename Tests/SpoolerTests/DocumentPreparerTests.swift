import Foundation
import PrintModel
import Rendering
import Spooler
import Templates
import Testing

/// A job's content drawn for a printer's saved capabilities: the media, the
/// format and the finishings the IPP request will carry.
@Suite struct DocumentPreparerTests {
    static let roll80 = RollMedia(width: .millimetres(80), cutLengths: .millimetres(25)...Length.millimetres(3000),
                                  margins: Margins(left: .millimetres(4), right: .millimetres(4)), source: "main-roll")

    static func printer(formats: [String], trims: [Trim] = [.afterPages]) -> PrinterCapabilities {
        PrinterCapabilities(name: "Test Receipt", kinds: [.receipt, .roll], documentFormats: formats,
                            resolutions: Resolutions(pwgRaster: [Resolution(203)], appleRaster: [Resolution(203)],
                                                     printer: [Resolution(203)], preferred: Resolution(203)),
                            rolls: [roll80], trims: trims)
    }

    let preparer = DocumentPreparer(catalog: TemplateCatalog())
    static let sample = BuiltInTemplates.all.first { $0.name == "receipt" }!.sampleData!

    @Test func aRasterPrinterGetsPWGAtItsResolutionWithTheCut() throws {
        let printer = Self.printer(formats: ["application/octet-stream", "image/urf", "image/pwg-raster"])
        let document = try preparer.prepare(template: "receipt", dataJSON: Self.sample, jobName: "Receipt 4711",
                                            for: printer)
        #expect(document.format == .pwgRaster)
        #expect(document.finishings == [.afterPages])
        #expect(document.cutLengths.count == 1 && document.yDimension == document.cutLengths[0])
        let pages = try RasterReader.read(data: document.data)
        #expect(pages.count == 1)
        #expect(pages[0].header.width == 639)
        #expect(pages[0].header.height == document.yDimension.dots(at: 203))
    }

    @Test func formatsInOrderOfPreference() throws {
        let urf = try preparer.prepare(template: "receipt", dataJSON: Self.sample, jobName: "r",
                                       for: Self.printer(formats: ["image/urf", "application/pdf"]))
        #expect(urf.format == .urf)
        #expect(urf.data.prefix(4) == Data("UNIR".utf8))
        let pdf = try preparer.prepare(template: "receipt", dataJSON: Self.sample, jobName: "r",
                                       for: Self.printer(formats: ["application/pdf"], trims: []))
        #expect(pdf.format == .pdf && pdf.data.prefix(5) == Data("%PDF-".utf8))
        #expect(pdf.finishings.isEmpty)
        #expect(throws: DeliveryError.self) {
            try preparer.prepare(template: "receipt", dataJSON: Self.sample, jobName: "r",
                                 for: Self.printer(formats: ["application/postscript"]))
        }
    }

    @Test func badDataIsPermanentAndSaysWhere() throws {
        do {
            _ = try preparer.prepare(template: "receipt", dataJSON: #"{"store": {}}"#, jobName: "Receipt 9",
                                     for: Self.printer(formats: ["image/pwg-raster"]))
            Issue.record("a receipt without its data was prepared")
        } catch {
            #expect(error.isPermanent)
            #expect(error.description.contains("built-in/receipt.xml:"))
            #expect(error.description.contains("the data has no \"store.name\""))
        }
    }

    static func file(_ name: String, _ bytes: Data) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("kioskprint-files-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent(name).path
        try bytes.write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func printerReadyFilesAreCheckedBeforeTheyAreAccepted() throws {
        let whole = Data("%PDF-1.4\n1 0 obj << >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n".utf8)
        let encrypted = Data("%PDF-1.4\ntrailer << /Root 1 0 R /Encrypt 2 0 R >>\n%%EOF\n".utf8)
        let cut = Data("%PDF-1.4\n1 0 obj << >> endobj\n".utf8)
        if case .pdf = try PrinterReadyFile.check(path: Self.file("ok.pdf", whole)) {} else { Issue.record("not a PDF") }
        for (name, bytes, reason) in [("secret.pdf", encrypted, "encrypted"), ("cut.pdf", cut, "cut short"),
                                      ("notes.png", Data("just text".utf8), "notes.png")] {
            let path = try Self.file(name, bytes)
            #expect { try PrinterReadyFile.check(path: path) } throws: { error in
                "\(error)".contains(path) && "\(error)".contains(reason)
            }
        }
        #expect(throws: DeliveryError.self) { try PrinterReadyFile.check(path: "/nonexistent/ticket.pdf") }
    }

    @Test func anImageFilePrintsAcrossTheRoll() throws {
        // The built-in receipt's logo, as a file a kiosk application might drop.
        let logo = try #require(BuiltInTemplates.all.first?.assets.embedded["logo.png"])
        let path = try Self.file("logo.png", Data(logo))
        let document = try preparer.prepare(file: path, for: Self.printer(formats: ["image/pwg-raster"]))
        let page = try #require(try RasterReader.read(data: document.data).first)
        #expect(page.header.width == 639)
        #expect(document.finishings == [.afterPages])
        #expect(document.cutLengths.count == 1)
    }
}
