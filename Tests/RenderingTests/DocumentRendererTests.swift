import Foundation
import PrintModel
import Testing
@testable import Rendering
@testable import Templates

/// Templates laid out for a printer's media, cut into pages, and written as
/// raster and PDF: the lengths and page headers a printer receives.
@Suite struct DocumentRendererTests {
    typealias F = LayoutFixtures

    static func document(_ body: String, template attributes: String = "", header: String = "",
                         footer: String = "") throws -> LayoutDocument {
        try TemplateParser.parse("""
            <template \(attributes)>
            \(header.isEmpty ? "" : "<header>\(header)</header>")
            \(body)
            \(footer.isEmpty ? "" : "<footer>\(footer)</footer>")
            </template>
            """, file: "test.xml")
    }

    static func items(_ count: Int) -> String {
        (1...count).map { "<row><col width=\"1fr\">Item \($0)</col><col>\($0).00</col></row>" }.joined(separator: "\n")
    }

    /// A roll with a top and bottom margin, so the cut length includes them.
    static let roll = PageGeometry(mediaWidth: .millimetres(80),
                                   margins: Margins(top: .millimetres(2), bottom: .millimetres(3),
                                                    left: .millimetres(4), right: .millimetres(4)),
                                   resolution: Resolution(203),
                                   feed: .roll(cutLengths: .millimetres(25)...Length.millimetres(3000)))

    @Test func cutLengthGrowsWithItemsAndIsContentPlusMargins() throws {
        let renderer = DocumentRenderer(media: Self.roll)
        var lengths: [Length] = []
        for count in [10, 20, 30] {
            let document = try Self.document(Self.items(count))
            let rendered = try renderer.render(document)
            let page = try #require(rendered.pages.first)
            #expect(rendered.pages.count == 1)
            // The same content measured on its own: the cut is content plus margins.
            let content = LayoutRenderer(geometry: Self.roll).render(document.body)
            #expect(page.length == content.contentLength + .millimetres(5))
            #expect(page.contentHeight == content.height)
            #expect(page.width == 639 && page.height == page.length.dots(at: 203))
            lengths.append(page.length)
        }
        #expect(lengths[0] < lengths[1] && lengths[1] < lengths[2])
    }

    @Test func shortContentGetsTheShortestCut() throws {
        let rendered = try DocumentRenderer(media: Self.roll).render(Self.document("<text>Hi</text>"))
        #expect(rendered.cutLengths == [.millimetres(25)])
    }

    @Test func explicitCutMakesSeparatePiecesAndRasterSaysCutAfterEach() throws {
        let document = try Self.document("""
            \(Self.items(3))
            <cut/>
            <text size="14" bold="true" align="center">COUPON</text>
            """)
        let rendered = try DocumentRenderer(media: Self.roll).render(document)
        #expect(rendered.pages.count == 2)
        for format in [RasterWriter.Format.pwg, .urf] {
            let pages = try RasterReader.read(data: rendered.rasterDocument(format))
            #expect(pages.count == 2)
            #expect(pages.map(\.header.height) == rendered.pages.map(\.height))
            #expect(pages.allSatisfy { $0.header.width == 639 && $0.header.resolution == Resolution(203) })
            if format == .pwg {
                #expect(pages.allSatisfy { $0.header.cut == .afterPage })
                // PageSize is in whole points (rounded down, as libcups does); the
                // exact length is in the page height in dots and the size name.
                let expected = rendered.pages.map { UInt32(72 * $0.length.hundredthsOfMillimetre / 2540) }
                #expect(pages.map { $0.header.pageSize[1] } == expected)
            }
        }
    }

    @Test func contentLongerThanTheLongestCutIsSplitNotLost() throws {
        var short = Self.roll
        short.feed = .roll(cutLengths: .millimetres(25)...Length.millimetres(60))
        let document = try Self.document(Self.items(40))
        let rendered = try DocumentRenderer(media: short).render(document)
        let total = LayoutRenderer(geometry: short).render(document.body).height
        #expect(rendered.pages.count > 2)
        #expect(rendered.pages.allSatisfy { $0.length <= .millimetres(60) })
        #expect(rendered.pages.map(\.contentHeight).reduce(0, +) == total)
    }

    @Test func labelOnASheetIsTheSheet() throws {
        let label = PageGeometry(sheet: SheetMedia(name: "na_index-4x6_4x6in", width: .inches(4), length: .inches(6)),
                                 resolution: Resolution(203))
        let rendered = try DocumentRenderer(media: label).render(Self.document("<text>Ship to</text>", template: #"page="4x6in""#))
        #expect(rendered.cutLengths == [.inches(6)])
        #expect(rendered.pages[0].width == 812 && rendered.pages[0].height == 1218)
        let header = try #require(RasterReader.read(data: rendered.rasterDocument(.pwg)).first?.header)
        #expect(header.pageSizeName == "na_index-4x6_4x6in")
        #expect(header.cut == RasterPageOptions.Cut.none)
    }

    @Test func labelTemplateOnTheWrongRollSaysSo() throws {
        #expect {
            try DocumentRenderer(media: Self.roll).render(Self.document("<text>x</text>", template: #"page="4x6in""#))
        } throws: { error in
            "\(error)".contains("4 in") || "\(error)".contains("101.6")
        }
    }

    @Test func landscapeRunsAlongThePaper() throws {
        let stock = PageGeometry(sheet: SheetMedia(width: .inches(3.25), length: .inches(8)), resolution: Resolution(203))
        let document = try Self.document(#"<text size="20">BOARDING PASS  LHR - JFK  BA117</text>"#,
                                         template: #"page="3.25x8in" orientation="landscape""#)
        let rendered = try DocumentRenderer(media: stock).render(document)
        let page = try #require(rendered.pages.first)
        #expect(page.width == 659 && page.height == 1624)
        // One line of text turned a quarter: its ink is far taller than wide,
        // and it sits along the left edge (the content's top).
        let ink = try #require(InkBounds(page))
        #expect(ink.maxY - ink.minY > 4 * (ink.maxX - ink.minX))
        #expect(ink.maxX < 660 / 2)
    }

    @Test func headerAndFooterOnEveryPageWithTheirOwnNumbers() throws {
        let sheet = PageGeometry(sheet: SheetMedia(width: .millimetres(100), length: .millimetres(60)), resolution: Resolution(203))
        let document = try Self.document(Self.items(30), template: #"page="100x60mm""#,
                                         header: "<text>Header</text><rule/>",
                                         footer: #"<text align="right">Page {{page}} of {{pages}}</text>"#)
        let rendered = try DocumentRenderer(media: sheet).render(document)
        #expect(rendered.pages.count >= 3)
        // The footer sits at the bottom of every page, and its numbers differ.
        let footers = rendered.pages.map { page in Array(page.ink[(page.height - 60) * page.width..<(page.height * page.width)]) }
        #expect(footers.allSatisfy { $0.contains { $0 > 128 } })
        #expect(Set(footers).count == rendered.pages.count)
        // The header is the same on every page.
        let headers = rendered.pages.map { page in Array(page.ink[0..<(30 * page.width)]) }
        #expect(Set(headers).count == 1 && headers[0].contains { $0 > 128 })
    }

    @Test func pdfPagesAreTheCutLengths() throws {
        let document = try Self.document("\(Self.items(5))<cut/>\(Self.items(12))")
        let renderer = DocumentRenderer(media: Self.roll)
        let raster = try renderer.render(document)
        let pdf = try renderer.renderPDF(document, title: "Receipt 4711")
        #expect(pdf.pageLengths == raster.cutLengths)
        let text = String(decoding: pdf.data, as: UTF8.self)
        #expect(text.hasPrefix("%PDF-"))
        let boxes = text.matches(of: /\/MediaBox \[ ?0 0 ([0-9.]+) ([0-9.]+) ?\]/).map { (Double($0.1)!, Double($0.2)!) }
        #expect(boxes.count == 2)
        for (box, length) in zip(boxes, raster.cutLengths) {
            #expect(abs(box.0 - 80 * 72 / 25.4) < 0.01)
            #expect(abs(box.1 - Double(length.hundredthsOfMillimetre) * 72 / 2540) < 0.01)
        }
    }

    @Test func boxDrawsItsBorderAroundTheContent() throws {
        let rendered = try DocumentRenderer(media: Self.roll).render(
            Self.document(#"<box border="0.5mm" padding="2mm"><text>GATE B32</text></box>"#))
        let page = rendered.pages[0]
        let ink = try #require(InkBounds(page))
        // The border spans the printable width, and its left edge is solid ink from top to bottom.
        #expect(ink.minX == 32 && ink.maxX == 607)
        #expect((ink.minY...ink.maxY).allSatisfy { page.ink(x: 32, y: $0) > 128 })
    }

    @Test func barcodeWithHumanReadableTextDecodes() throws {
        let rendered = try DocumentRenderer(media: Self.roll).render(
            Self.document(#"<barcode type="ean13" module="3" height="15mm">4006381333931</barcode>"#))
        #expect(rendered.problems.isEmpty, "\(rendered.problems)")
        let path = TestPages.temporaryPath("document-ean13.png")
        try rendered.writePNGPreview(toFile: path)
        #expect(try BarcodeDecoder.decode(pngAt: path).map(\.text) == ["4006381333931"])
        // The digits under the bars make the page taller than the bars alone.
        #expect(rendered.pages[0].contentHeight > 15 * 8)
    }

    @Test func tooWideBarcodeIsShrunkAndReported() throws {
        let rendered = try DocumentRenderer(media: Self.roll).render(
            Self.document(#"<barcode type="code128" module="6">KIOSKPRINT-0123456789</barcode>"#))
        #expect(rendered.problems.map(\.kind) == [.barcodeShrunk])
        let path = TestPages.temporaryPath("document-code128-shrunk.png")
        try rendered.writePNGPreview(toFile: path)
        #expect(try BarcodeDecoder.decode(pngAt: path).map(\.text) == ["KIOSKPRINT-0123456789"])
    }

    @Test func badBarcodeDataIsAnError() throws {
        let rendered = try DocumentRenderer(media: Self.roll).render(Self.document(#"<barcode type="ean13">ABC</barcode>"#))
        #expect(rendered.hasErrors)
        #expect(rendered.problems.first?.location.line == 3)
    }
}
