import Foundation
import PrintModel
import Testing
@testable import Rendering
@testable import Templates

@Suite struct LayoutRendererTests {
    typealias F = LayoutFixtures
    let renderer = LayoutRenderer(geometry: F.roll80)
    var printable: Range<Int> { F.roll80.printableLeftDots..<(F.roll80.printableLeftDots + F.roll80.printableWidthDots) }

    @Test func geometryOf80mmRoll() {
        #expect(F.roll80.widthInDots == 639)
        #expect(printable == 32..<608)
    }

    @Test func inkStaysInsidePrintableWidth() throws {
        let wide = String(repeating: "W", count: 80)
        let nodes: [LayoutNode] = [
            F.text(wide, F.style(size: 14, bold: true)),
            F.text(wide, F.style(wrap: TextStyle.Wrap.none)),
            F.text("Superlongunbreakablewordwithoutanyspaceswhatsoever1234567890", F.style(size: 18)),
            F.text("Inverse banner", F.style(inverse: true, align: .center)),
            F.itemRow(String(repeating: "Long item name ", count: 6), "99", "123456.78"),
            F.rule(.solid, .millimetres(1)), F.rule(.dashed), F.rule(.double),
        ]
        let result = renderer.render(nodes)
        #expect(result.width == 639)
        let bounds = try #require(InkBounds(result))
        print("edges: height \(result.height) dots, ink x \(bounds.minX)...\(bounds.maxX)")
        #expect(bounds.minX >= 32 && bounds.maxX < 608)
        // Rules span the printable width exactly: edge to edge.
        #expect(bounds.minX == 32 && bounds.maxX == 607)
        #expect(result.problems.map(\.kind) == [.truncated])
    }

    @Test func heightGrowsWithContent() throws {
        func lines(_ count: Int) -> [LayoutNode] { (1...count).map { F.text("Line \($0)") } }
        let five = renderer.render(lines(5)), ten = renderer.render(lines(10))
        #expect(ten.height > five.height)
        #expect(ten.contentLength > five.contentLength)

        func body(_ rows: Int) -> [LayoutNode] { (1...rows).map { F.itemRow("Item \($0)", "1", "\($0).00") } }
        let short = renderer.render(body(10)), long = renderer.render(body(30))
        let ratio = Double(long.height) / Double(short.height)
        print("heights: 5 lines \(five.height), 10 lines \(ten.height); 10 rows \(short.height), 30 rows \(long.height) "
              + "(\(long.contentLength)), ratio \(ratio)")
        #expect(abs(ratio - 3) < 0.1)
    }

    @Test func russianGreekAndAccentedLatinHaveGlyphs() {
        let result = renderer.render([F.text("Итого: 123,50 ₽"), F.text("Спасибо за покупку!"),
                                      F.text("Ευχαριστούμε"), F.text("Crème brûlée", F.style(bold: true, italic: true))])
        #expect(result.problems.isEmpty, "\(result.problems)")
    }

    @Test func glyphDejaVuLacksIsReported() throws {
        let result = renderer.render([F.text("Fine"), F.text("Tea 漢 set", line: 42)])
        let problem = try #require(result.problems.first)
        print("missing glyph: \(problem)")
        #expect(result.problems.count == 1)
        #expect(problem.kind == .missingGlyphs)
        #expect(problem.message.contains("漢") && problem.message.contains("U+6F22"))
        #expect(problem.message.contains("Tea 漢 set"))
        #expect(problem.location == SourceLocation(file: "receipt.xml", line: 42, column: 1))
    }

    @Test func alignment() throws {
        let right = try #require(InkBounds(renderer.render([F.text("Total", F.style(align: .right))])))
        let center = try #require(InkBounds(renderer.render([F.text("Total", F.style(align: .center))])))
        let left = try #require(InkBounds(renderer.render([F.text("Total")])))
        print("alignment ink x: left \(left.minX)...\(left.maxX), center \(center.minX)...\(center.maxX), "
              + "right \(right.minX)...\(right.maxX)")
        #expect(abs(left.minX - 32) <= 4)
        #expect(abs(right.maxX - 607) <= 4)
        #expect(abs((center.minX + center.maxX) / 2 - (32 + 608) / 2) <= 4)
    }

    @Test func inverseTextIsLettersClearedFromInk() throws {
        let result = renderer.render([F.text("PAID", F.style(size: 14, bold: true, inverse: true))])
        #expect(result.height > 0)
        var ink = 0, clear = 0
        for y in 0..<result.height {
            for x in printable { if result.ink(x: x, y: y) >= 128 { ink += 1 } else { clear += 1 } }
        }
        print("inverse: \(result.height) rows, \(ink) ink / \(clear) clear in the block")
        #expect(Double(ink) / Double(ink + clear) > 0.8)
        #expect(clear > 100)
        // Nothing outside the printable width, even for a filled block.
        #expect(InkBounds(result)?.minX == 32 && InkBounds(result)?.maxX == 607)
    }

    @Test func itemRowWrapsNameAndRightAlignsPrice() throws {
        let oneLine = renderer.render([F.text("Item")]).height
        let result = renderer.render([F.itemRow("Item name that is rather long", "2", "12.50")])
        let bounds = try #require(InkBounds(result))
        print("row: height \(result.height) (one line \(oneLine)), ink x \(bounds.minX)...\(bounds.maxX)")
        #expect(abs(bounds.maxX - 607) <= 3)
        #expect(result.height > oneLine)
        #expect(result.problems.isEmpty)
    }

    @Test func longNameWrapsAtOneFraction() throws {
        // The name column is the printable width minus 12 mm, the price and two gaps.
        let result = renderer.render([F.itemRow(String(repeating: "Item name that is rather long ", count: 4), "2", "12.50")])
        let oneLine = renderer.render([F.text("Item")]).height
        #expect(result.height >= 3 * oneLine)
    }

    @Test func unreadableImageAndMisplacedCutAreReported() {
        let image = LayoutNode.image(ImageBlock(source: "logo.png", width: nil, align: .center,
                                                dither: .threshold, location: F.here()))
        let escaping = LayoutNode.image(ImageBlock(source: "../../etc/passwd", width: nil, align: .center,
                                                   dither: .threshold, location: F.here()))
        let box = LayoutNode.box(Box(border: .millimetres(0.5), padding: .millimetres(1), children: [.cut(F.here())],
                                     location: F.here()))
        var withFolder = renderer
        withFolder.assets = TemplateAssets(folder: "/nonexistent-kioskprint-assets")
        let result = withFolder.render([F.text("Hello"), image, escaping, box])
        #expect(result.problems.map(\.kind) == [.imageUnavailable, .imageUnavailable, .misplacedCut])
        #expect(result.problems[0].isError && !result.problems[2].isError)
        #expect(result.problems[1].message.contains("outside the template's folder"))
        #expect(result.height > 0)
    }

    @Test func emptyLayoutIsEmpty() {
        let result = renderer.render([])
        #expect(result.height == 0 && result.ink.isEmpty && result.rasterPage() == nil)
    }

    @Test func sampleReceiptToRasterAndPNG() throws {
        let result = renderer.render(F.sampleReceipt())
        #expect(result.problems.isEmpty, "\(result.problems)")
        let page = try #require(result.rasterPage())
        #expect(page.width == 639 && page.height == result.height && page.format == .black1)
        let path = TestPages.temporaryPath("layout-receipt.png")
        try result.writePNGPreview(toFile: path)
        print("sample receipt: \(result.width)x\(result.height) dots (\(result.contentLength)) -> \(path)")
        #expect(FileManager.default.fileExists(atPath: path))
    }
}

@Suite struct ColumnWidthsTests {
    @Test func fixedThenNaturalThenFractions() {
        let (widths, overflows) = ColumnWidths.distribute([.fraction(1), .fixed(96), .natural(50)], available: 576, gap: 12)
        #expect(widths == [576 - 96 - 50 - 24, 96, 50])
        #expect(!overflows)
    }

    @Test func fractionsShareInProportionAndFillExactly() {
        let (widths, _) = ColumnWidths.distribute([.fraction(1), .fraction(2)], available: 100, gap: 0)
        #expect(widths == [33, 67])
    }

    @Test func overflowIsClampedAndFlagged() {
        let (widths, overflows) = ColumnWidths.distribute([.fixed(400), .natural(300)], available: 576, gap: 12)
        #expect(overflows)
        #expect(widths == [400, 164])
    }
}
