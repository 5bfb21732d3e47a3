import Foundation
import PrintModel
import Testing
@testable import Rendering
@testable import Templates

/// The templates kioskprint ships, drawn with their sample data the way a
/// printer would receive them, and read back: barcodes by a real decoder,
/// raster files by libcups.
@Suite struct BuiltInTemplateTests {
    typealias F = LayoutFixtures

    static func job(_ name: String, data: String? = nil) throws -> TemplateJob {
        let source = try #require(BuiltInTemplates.all.first { $0.name == name })
        return try TemplateJob(source: source, dataJSON: Data((data ?? source.sampleData ?? "{}").utf8),
                               dataFile: "\(name).json")
    }

    static func media(_ job: TemplateJob, dpi: Int) -> PageGeometry {
        MediaSelection.preview(for: job.document.page, width: nil, dpi: dpi)
    }

    /// Every barcode data string in the bound template, in order.
    static func barcodes(in nodes: [LayoutNode]) -> [String] {
        nodes.flatMap { node -> [String] in
            switch node {
            case .barcode(let barcode): [barcode.data]
            case .box(let box): barcodes(in: box.children)
            case .section(let section): barcodes(in: section.children)
            default: []
            }
        }
    }

    @Test(arguments: BuiltInTemplates.all.map(\.name), [203, 300])
    func drawsWithItsSampleDataWithoutAProblem(name: String, dpi: Int) throws {
        let job = try Self.job(name)
        let rendered = try job.render(on: Self.media(job, dpi: dpi))
        // No warnings either: no missing glyph, no shortened line, no shrunk barcode.
        #expect(rendered.problems.isEmpty, "\(rendered.problems)")
        #expect(rendered.pages.count == 1)
        #expect(rendered.pages.allSatisfy { $0.ink.contains { $0 > 128 } })
    }

    @Test(arguments: BuiltInTemplates.all.map(\.name).filter { $0 != "test-page" })
    func everyBarcodeDecodesToItsData(name: String) throws {
        let job = try Self.job(name)
        let expected = Self.barcodes(in: try job.bound().body)
        #expect(!expected.isEmpty)
        let rendered = try job.render(on: Self.media(job, dpi: 203))
        let path = TestPages.temporaryPath("builtin-\(name).png")
        try rendered.writePNGPreview(toFile: path)
        let decoded = try BarcodeDecoder.decode(pngAt: path).map(\.text)
        #expect(decoded.sorted() == expected.sorted(), "\(path)")
    }

    @Test func theRussianReceiptHasEveryGlyph() throws {
        let job = try Self.job("receipt-ru")
        let rendered = try job.render(on: F.roll80)
        #expect(!rendered.problems.contains { $0.kind == .missingGlyphs }, "\(rendered.problems)")
        #expect(try job.bound().body.contains { node in
            if case .text(let text) = node { text.content.contains("КАССОВЫЙ ЧЕК") } else { false }
        })
    }

    /// The receipt's sample data with `count` items.
    static func receiptData(items count: Int) throws -> String {
        let sample = try #require(BuiltInTemplates.all.first { $0.name == "receipt" }?.sampleData)
        var object = try #require(try JSONSerialization.jsonObject(with: Data(sample.utf8)) as? [String: Any])
        let items = try #require(object["items"] as? [[String: Any]])
        object["items"] = (0..<count).map { items[$0 % items.count] }
        return String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
    }

    @Test func receiptCutGrowsWithItemsAndIsItsContentPlusMargins() throws {
        var lengths: [Length] = []
        for count in [5, 15, 30] {
            let job = try Self.job("receipt", data: Self.receiptData(items: count))
            let page = try #require(try job.render(on: F.roll80).pages.first)
            // The template keeps 1 mm at the top and bottom; the roll has no margins
            // of its own there, so the cut is the content plus 2 mm, no more.
            let content = Length(hundredthsOfMillimetre: (page.contentHeight * 2540 + 202) / 203)
            #expect(page.length == max(.millimetres(60), content + .millimetres(2)))
            lengths.append(page.length)
        }
        #expect(lengths[0] < lengths[1] && lengths[1] < lengths[2])
    }

    @Test func receiptCoversTheRollAndStaysInsideItsPrintableWidth() throws {
        let job = try Self.job("receipt")
        let page = try #require(try job.render(on: F.roll80).pages.first)
        #expect(page.width == 639)
        let ink = try #require(InkBounds(page))
        // 4 mm hardware margins leave dots 32..<608; the template's 1 mm more, 40..<600.
        #expect(ink.minX >= 40 && ink.maxX < 600)

        let roll58 = PageGeometry(roll: RollMedia(width: .millimetres(58), cutLengths: .millimetres(25)...Length.millimetres(3000),
                                                  margins: Margins(left: .millimetres(3), right: .millimetres(3))),
                                  resolution: Resolution(203))
        let narrow = try #require(try job.render(on: roll58).pages.first)
        let narrowInk = try #require(InkBounds(narrow))
        #expect(narrow.width == 463)
        #expect(narrowInk.minX >= 24 + 8 && narrowInk.maxX < 24 + 416 - 8)
        #expect(narrow.length > page.length)   // narrower paper, more lines
    }

    @Test func receiptRasterFilesParseBackWithTheirHeaders() throws {
        let rendered = try Self.job("receipt").render(on: F.roll80)
        let page = try #require(rendered.pages.first)
        let pwg = try #require(try RasterReader.read(data: rendered.rasterDocument(.pwg)).first)
        #expect(pwg.header.width == 639 && pwg.header.height == page.height)
        #expect(pwg.header.resolution == Resolution(203))
        #expect(pwg.header.pixelFormat == .black1)
        #expect(pwg.header.cut == .afterPage)
        #expect(pwg.header.totalPageCount == 1)
        #expect(pwg.raster == page.rasterPage(format: .black1))

        let gray = try #require(try RasterReader.read(data: rendered.rasterDocument(.pwg, pixelFormat: .sgray8)).first)
        #expect(gray.header.pixelFormat == .sgray8 && gray.header.bitsPerPixel == 8)

        let urf = try #require(try RasterReader.read(data: rendered.rasterDocument(.urf)).first)
        #expect(urf.header.width == 639 && urf.header.height == page.height)
        #expect(urf.header.resolution == Resolution(203) && urf.header.pixelFormat == .sgray8)
    }

    @Test func aCustomTemplateReplacesTheBuiltInOfItsName() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("kioskprint-templates-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try #"<template><text>{{greeting}}</text></template>"#.write(
            to: folder.appendingPathComponent("receipt.xml"), atomically: true, encoding: .utf8)
        try #"{"greeting": "hello"}"#.write(to: folder.appendingPathComponent("receipt.sample.json"),
                                           atomically: true, encoding: .utf8)
        let catalog = TemplateCatalog(folders: [folder.path])
        let receipt = try catalog.find("receipt")
        #expect(receipt.origin == .overriding(path: folder.appendingPathComponent("receipt.xml").path))
        #expect(receipt.sampleData == #"{"greeting": "hello"}"#)
        #expect(receipt.assets.folder == folder.path)
        #expect(catalog.all().count == BuiltInTemplates.all.count)
        #expect(try catalog.find("boarding-pass").origin == .builtIn)
        #expect(throws: TemplateLookupError.self) { try catalog.find("nonexistent") }
    }

    @Test func checkFindsEveryKindOfProblemAtItsPlace() throws {
        let source = TemplateSource(name: "t", origin: .builtIn, text: """
            <template>
              <image src="missing.png"/>
              <text>{{name}}</text>
              <barcode type="pdf417" check="bcbp">{{bcbp}}</barcode>
            </template>
            """, file: "t.xml", assets: TemplateAssets(folder: "/nonexistent-kioskprint"))
        let check = TemplateCheck.run(source, dataJSON: Data(#"{"bcbp": "M1TOO SHORT"}"#.utf8), dataFile: "t.json")
        #expect(!check.isClean)
        #expect(check.errors.count == 3, "\(check.errors)")
        #expect(check.errors.contains { $0.hasPrefix("t.xml:3:3: the data has no \"name\"") })
        #expect(check.errors.contains { $0.hasPrefix("t.xml:2:3:") && $0.contains("missing.png") })
        #expect(check.errors.contains { $0.hasPrefix("t.xml:4:3:") && $0.contains("60") })
    }
}
