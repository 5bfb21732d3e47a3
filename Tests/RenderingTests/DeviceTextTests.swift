import Foundation
import PrintModel
import Testing
@testable import Rendering
@testable import Templates

/// Which text a page leaves to the printer's own font (`delivery =
/// "native"`): where it is placed, what stays drawn, and that the page is
/// exactly as long either way.
@Suite struct DeviceTextTests {
    /// A printer whose code pages hold ISO 8859-1's characters.
    static let latin1 = DeviceTextOptions(font: .escPosFontA) { text in
        text.unicodeScalars.allSatisfy { (0x20...0xFF).contains($0.value) }
    }
    static let ascii = DeviceTextOptions(font: .escPosFontA) { text in
        text.unicodeScalars.allSatisfy { (0x20...0x7E).contains($0.value) }
    }

    /// The built-in receipt (or `xml`) composed on an 80 mm roll at 203 dpi.
    static func composed(_ xml: String? = nil) throws -> Composition {
        let source = xml.map { TemplateSource(name: "t", origin: .builtIn, text: $0, file: "t.xml", assets: .none) }
            ?? BuiltInTemplates.all.first { $0.name == "receipt" }!
        let job = try TemplateJob(source: source, dataJSON: Data((source.sampleData ?? "{}").utf8), dataFile: "t.json")
        let media = BuiltInTemplateTests.media(job, dpi: 203)
        return try DocumentRenderer(media: media, assets: source.assets).compose(try job.bound())
    }

    static func drawnTexts(_ page: ComposedPage) -> [String] {
        page.placements.flatMap(\.operations).compactMap { operation in
            if case .text(let layout, _, _, _) = operation, !layout.text.allSatisfy({ $0 == " " }) { layout.text } else { nil }
        }
    }

    @Test func everyLineOfTheReceiptGoesToThePrinterWhenItsCodePagesHaveTheLetters() throws {
        let composition = try Self.composed()
        let page = try #require(composition.pages.first)
        let (drawn, lines) = DeviceTextPlanner(options: Self.latin1, dpi: 203).split(page, setup: composition.setup)
        #expect(Self.drawnTexts(drawn).isEmpty, "drawn: \(Self.drawnTexts(drawn))")
        let texts = lines.flatMap(\.runs).map(\.text)
        #expect(texts.contains("Crème fraîche") && texts.contains("£ 21.52") && texts.contains("2 ×"))
        // A wrapped item name goes line by line, as it was wrapped.
        #expect(texts.contains("Sourdough loaf, seeded") && texts.contains("(whole, not sliced)"))
        // The logo, the rules and the QR code stay drawn.
        #expect(drawn.placements.flatMap(\.operations).contains { if case .bitmap = $0 { true } else { false } })
        for (upper, lower) in zip(lines, lines.dropFirst()) { #expect(upper.top + upper.height <= lower.top) }
        for line in lines {
            let tallest = line.runs.map { $0.height(in: .escPosFontA) }.max() ?? 0
            #expect(line.cellTop >= 0 && line.cellTop + tallest <= line.height, "the cells stay in the line's rows at \(line.top)")
        }
    }

    @Test func columnsKeepTheirAlignmentInThePrintersFont() throws {
        let composition = try Self.composed()
        let page = try #require(composition.pages.first)
        let (_, lines) = DeviceTextPlanner(options: Self.latin1, dpi: 203).split(page, setup: composition.setup)
        let content = composition.setup.content
        let right = content.printableLeftDots + content.printableWidthDots
        let items = lines.filter { $0.runs.count == 3 }
        #expect(items.count >= 6)
        for line in items {
            let font = DeviceFont.escPosFontA
            #expect(line.runs[0].x == content.printableLeftDots, "names start at the left edge")
            #expect(line.runs[2].x + line.runs[2].width(in: font) == right, "prices end at the right edge: \(line.runs[2])")
            #expect(line.runs[1].x + line.runs[1].width(in: font) == items[0].runs[1].x + items[0].runs[1].width(in: font),
                    "quantities share a right edge")
        }
        // The 14 pt total is twice as wide as Font A, and as tall as its 47 rows allow: once.
        let total = try #require(lines.first { $0.runs.first?.text == "TOTAL" })
        #expect(total.runs.allSatisfy { $0.widthScale == 2 && $0.heightScale == 1 && $0.bold })
    }

    @Test func textThePrintersCodePagesLackStaysDrawn() throws {
        let composition = try Self.composed()
        let page = try #require(composition.pages.first)
        let (drawn, lines) = DeviceTextPlanner(options: Self.ascii, dpi: 203).split(page, setup: composition.setup)
        let stillDrawn = Self.drawnTexts(drawn)
        #expect(stillDrawn.contains("Crème fraîche") && stillDrawn.contains("£ 21.52"))
        // A row goes whole or not at all: "2 ×" keeps its row's name and price drawn beside it.
        #expect(stillDrawn.contains("Flat white") && stillDrawn.contains("6.40"))
        #expect(lines.flatMap(\.runs).map(\.text).contains("Subtotal"))
    }

    @Test func inverseUnderlinedAndShortenedTextStaysDrawn() throws {
        let composition = try Self.composed("""
            <template page="roll"><text inverse="true">INVERSE</text><text underline="true">UNDERLINED</text>\
            <text wrap="none">\(String(repeating: "shortened ", count: 20))</text><text>plain</text></template>
            """)
        let page = try #require(composition.pages.first)
        let (drawn, lines) = DeviceTextPlanner(options: Self.latin1, dpi: 203).split(page, setup: composition.setup)
        #expect(lines.flatMap(\.runs).map(\.text) == ["plain"])
        #expect(Self.drawnTexts(drawn).count == 3)
    }

    @Test func thePageIsAsLongAndItsTextRowsBlankWhenTheTextIsLeftToThePrinter() throws {
        let composition = try Self.composed()
        let page = try #require(composition.pages.first)
        let all = DocumentRenderer.draw(page, setup: composition.setup)
        let left = DocumentRenderer.draw(page, setup: composition.setup, deviceText: .leftToPrinter(Self.latin1))
        let preview = DocumentRenderer.draw(page, setup: composition.setup, deviceText: .painted(Self.latin1))
        #expect(left.height == all.height && preview.height == all.height && left.length == all.length)
        #expect(!left.deviceText.isEmpty && preview.deviceText.isEmpty)
        func inked(_ page: RenderedPage, _ rows: Range<Int>) -> Int {
            rows.reduce(0) { sum, y in sum + (0..<page.width).filter { page.ink(x: $0, y: y) >= 128 }.count }
        }
        for line in left.deviceText {
            let rows = line.top..<(line.top + line.height)
            #expect(inked(left, rows) == 0, "no drawing under the printer's line at \(line.top)")
            #expect(inked(preview, rows) > 0, "the preview shows the printer's letters at \(line.top)")
        }
        // Outside the printer's lines, all three are the same drawing.
        var outside = Set(0..<all.height)
        for line in left.deviceText { outside.subtract(line.top..<(line.top + line.height)) }
        let differing = outside.filter { y in (0..<all.width).contains { (all.ink(x: $0, y: y) >= 128) != (left.ink(x: $0, y: y) >= 128) } }
        #expect(differing.isEmpty, "rows \(differing.sorted().prefix(5)) differ")
    }
}
