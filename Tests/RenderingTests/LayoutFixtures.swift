import PrintModel
@testable import Rendering
@testable import Templates

/// Layout trees and measurements for the layout renderer's tests.
enum LayoutFixtures {
    /// An 80 mm roll with 4 mm hardware margins at 203 dpi: 639 dots of
    /// raster, printable 32..<608.
    static let roll80 = PageGeometry(
        roll: RollMedia(width: Length(hundredthsOfMillimetre: 8000),
                        cutLengths: Length(hundredthsOfMillimetre: 2500)...Length(hundredthsOfMillimetre: 300_000),
                        margins: Margins(left: Length(hundredthsOfMillimetre: 400),
                                         right: Length(hundredthsOfMillimetre: 400))),
        resolution: Resolution(203))

    static func here(_ line: Int = #line) -> SourceLocation {
        SourceLocation(file: "receipt.xml", line: line, column: 1)
    }

    static func style(size: Double? = nil, bold: Bool? = nil, italic: Bool? = nil, underline: Bool? = nil,
                      inverse: Bool? = nil, align: TextStyle.Alignment? = nil,
                      wrap: TextStyle.Wrap? = nil) -> TextStyle {
        var style = TextStyle()
        style.size = size; style.bold = bold; style.italic = italic; style.underline = underline
        style.inverse = inverse; style.align = align; style.wrap = wrap
        return style
    }

    static func text(_ content: String, _ style: TextStyle = TextStyle(), line: Int = #line) -> LayoutNode {
        .text(TextBlock(content: content, style: style, location: here(line)))
    }

    static func column(_ content: String, _ width: Column.Width, _ style: TextStyle = TextStyle()) -> Column {
        Column(width: width, content: content, style: style, location: here())
    }

    /// Item / quantity / price: 1fr / 12 mm / auto, quantity centered, price right aligned.
    static func itemRow(_ name: String, _ quantity: String, _ price: String) -> LayoutNode {
        .row(Row(columns: [column(name, .fraction(1)),
                           column(quantity, .fixed(.millimetres(12)), style(align: .center)),
                           column(price, .auto, style(align: .right))],
                 style: TextStyle(), location: here()))
    }

    static func rule(_ style: Rule.Style, _ thickness: Length = .millimetres(0.25)) -> LayoutNode {
        .rule(Rule(style: style, thickness: thickness, location: here()))
    }

    static func space(_ mm: Double) -> LayoutNode { .space(.millimetres(mm), here()) }

    /// A sample receipt: header, items, rules, total, inverse thank-you.
    static func sampleReceipt(items: Int = 6) -> [LayoutNode] {
        var nodes: [LayoutNode] = [
            text("KIOSK CAFÉ", style(size: 16, bold: true, align: .center)),
            text("Crème brûlée & Ευχαριστούμε", style(align: .center)),
            space(2), rule(.double),
        ]
        for index in 1...items {
            nodes.append(itemRow("Item \(index): a cappuccino with oat milk and cinnamon", "\(index)", "\(index * 3).50"))
        }
        nodes += [rule(.dashed),
                  .row(Row(columns: [column("Итого", .fraction(1)), column("123.50", .auto, style(align: .right))],
                           style: style(size: 12, bold: true), location: here())),
                  rule(.solid, .millimetres(0.5)), space(2),
                  text("Спасибо за покупку!", style(size: 12, inverse: true, align: .center)),
                  text("Keep this receipt", style(italic: true, underline: true, align: .right))]
        return nodes
    }
}

/// Where ink lies in a rendered layout.
struct InkBounds: Equatable {
    var minX: Int, maxX: Int, minY: Int, maxY: Int

    /// The bounding box of dots with ink of at least `level`, in rows `rows`
    /// (all by default); nil when there is none.
    init?(_ layout: RenderedLayout, rows: Range<Int>? = nil, level: UInt8 = 128) {
        self.init(width: layout.width, height: layout.height, rows: rows, level: level) { layout.ink(x: $0, y: $1) }
    }

    init?(_ page: RenderedPage, rows: Range<Int>? = nil, level: UInt8 = 128) {
        self.init(width: page.width, height: page.height, rows: rows, level: level) { page.ink(x: $0, y: $1) }
    }

    private init?(width: Int, height: Int, rows: Range<Int>?, level: UInt8, ink: (Int, Int) -> UInt8) {
        var minX = Int.max, maxX = -1, minY = Int.max, maxY = -1
        for y in rows ?? 0..<height {
            for x in 0..<width where ink(x, y) >= level {
                minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y)
            }
        }
        guard maxX >= 0 else { return nil }
        self.minX = minX; self.maxX = maxX; self.minY = minY; self.maxY = maxY
    }
}
