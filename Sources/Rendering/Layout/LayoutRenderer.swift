public import PrintModel
public import Templates

/// Draws a bound layout (text, rows, rules, spaces) top to bottom inside a
/// page's printable width, at the page's resolution.
///
/// Two passes: every block is laid out and measured first, since the bitmap
/// is exactly as tall as the content; then one A8 surface of that height is
/// drawn. Text is laid out with the horizontal dpi as Pango's resolution, so
/// a point is a real point and one cairo unit is one dot (thermal heads have
/// square dots; a non-square resolution would stretch text vertically).
///
/// Blocks are stacked with no space between them: spacing is the template's
/// to decide, with `space` blocks.
public struct LayoutRenderer: Sendable {
    public var geometry: PageGeometry
    /// Gap between a row's columns: 1.5 mm, enough to keep "2" and "12.50"
    /// from reading as "212.50", small enough to leave the name its width.
    public var columnGap: Length = .millimetres(1.5)

    public init(geometry: PageGeometry) { self.geometry = geometry }

    /// Lays out and draws `nodes`. Kinds not drawn yet (images, barcodes,
    /// boxes, cuts, unbound sections) are skipped and noted in `problems`.
    public func render(_ nodes: [LayoutNode]) -> RenderedLayout {
        var plan = DrawPlan(left: geometry.printableLeftDots, width: geometry.printableWidthDots,
                            dpi: geometry.resolution.horizontal)
        let gap = DotPitch(dpi: geometry.resolution.horizontal).dots(columnGap)
        var index = nodes.startIndex
        while index < nodes.endIndex {
            // Consecutive rows declared alike (a receipt's item lines) form a
            // table: their automatic columns share one width, so quantities
            // and prices line up from one line to the next.
            if case .row(let first) = nodes[index] {
                var table = [first]
                index += 1
                while index < nodes.endIndex, case .row(let next) = nodes[index],
                      next.columns.map(\.width) == first.columns.map(\.width) {
                    table.append(next)
                    index += 1
                }
                plan.addTable(table, columnGap: gap)
            } else {
                plan.add(nodes[index], verticalPitch: DotPitch(dpi: geometry.resolution.vertical), columnGap: gap)
                index += 1
            }
        }

        let width = geometry.widthInDots
        var ink: [UInt8] = []
        if width > 0, plan.height > 0 {
            let canvas = InkCanvas(width: width, height: plan.height,
                                   printable: plan.left..<(plan.left + plan.width))
            for operation in plan.operations { operation.draw(on: canvas) }
            ink = canvas.inkBuffer()
        }
        return RenderedLayout(width: width, height: ink.isEmpty ? 0 : plan.height,
                              resolution: geometry.resolution, ink: ink, problems: plan.problems)
    }
}

/// One drawing step, positioned in page dots.
enum DrawOperation {
    case fill(x: Int, y: Int, width: Int, height: Int)
    /// Text; `clear` cuts the letters out of ink filled before (inverse).
    case text(PangoTextLayout, x: Int, y: Int, clear: Bool)

    func draw(on canvas: InkCanvas) {
        switch self {
        case .fill(let x, let y, let width, let height): canvas.fill(x: x, y: y, width: width, height: height)
        case .text(let layout, let x, let y, let clear): canvas.draw(layout, x: x, y: y, clear: clear)
        }
    }
}

/// The first pass: blocks measured and turned into drawing steps.
struct DrawPlan {
    let left: Int
    let width: Int
    let dpi: Int
    private(set) var height = 0
    private(set) var operations: [DrawOperation] = []
    private(set) var problems: [RenderProblem] = []

    init(left: Int, width: Int, dpi: Int) { self.left = left; self.width = width; self.dpi = dpi }

    mutating func add(_ node: LayoutNode, verticalPitch: DotPitch, columnGap: Int) {
        switch node {
        case .text(let block):
            let style = ResolvedTextStyle(block.style)
            let layout = makeText(block.content, style: style, width: width, location: block.location)
            let blockHeight = layout.size.height
            place(layout, x: left, width: width, height: blockHeight, inverse: style.inverse)
            height += blockHeight
        case .row(let row):
            addTable([row], columnGap: columnGap)
        case .rule(let rule):
            addRule(rule, thickness: max(1, verticalPitch.dots(rule.thickness)), pitch: verticalPitch)
        case .space(let length, _):
            height += verticalPitch.dots(length)
        case .image(let image): skip("an image (\(image.source))", at: image.location)
        case .barcode(let barcode): skip("a \(barcode.symbology.rawValue) barcode", at: barcode.location)
        case .box(let box): skip("a box", at: box.location)
        case .cut(let location): skip("a cut", at: location)
        case .section(let section): skip("an unbound section \"\(section.name)\"", at: section.location)
        }
    }

    /// Text at (x, current top); inverse fills the block's rectangle first.
    private mutating func place(_ layout: PangoTextLayout, x: Int, width: Int, height blockHeight: Int,
                                inverse: Bool) {
        if inverse { operations.append(.fill(x: x, y: height, width: width, height: blockHeight)) }
        operations.append(.text(layout, x: x, y: height, clear: inverse))
    }

    /// A laid-out paragraph, with its missing glyphs and truncation reported.
    private mutating func makeText(_ text: String, style: ResolvedTextStyle, width: Int?,
                                   location: SourceLocation) -> PangoTextLayout {
        let layout = PangoTextLayout(text: text, style: style, width: width, dpi: dpi)
        if layout.unknownGlyphCount > 0 {
            let missing = layout.missingCharacters(dpi: dpi)
            let named = missing.map { "\"\($0)\" (\(codePoints($0)))" }.joined(separator: ", ")
            problems.append(RenderProblem(
                kind: .missingGlyphs,
                message: "The font \"\(style.font)\" and its fallbacks have no glyph for \(named.isEmpty ? "some characters" : named) "
                    + "in \"\(text)\"; install a font that covers them (e.g. fonts-noto-cjk) or change the text.",
                location: location))
        }
        if layout.isEllipsized {
            problems.append(RenderProblem(kind: .truncated,
                message: "\"\(text)\" does not fit on one line and was shortened with \"…\" (wrap: none).",
                location: location))
        }
        return layout
    }

    /// Rows of one table: each automatic column is as wide as its widest cell.
    mutating func addTable(_ rows: [Row], columnGap: Int) {
        var shared: [Int: Int] = [:]
        for row in rows {
            for (index, natural) in naturalWidths(row) { shared[index] = max(shared[index] ?? 0, natural) }
        }
        for row in rows { addRow(row, columnGap: columnGap, naturalWidths: shared) }
    }

    /// The natural (one-line) width of each automatic column, by column index.
    private func naturalWidths(_ row: Row) -> [Int: Int] {
        var widths: [Int: Int] = [:]
        for (index, column) in row.columns.enumerated() where column.width == .auto {
            let style = ResolvedTextStyle(column.style, inheriting: row.style)
            widths[index] = PangoTextLayout(text: column.content, style: style, width: nil, dpi: dpi).size.width
        }
        return widths
    }

    private mutating func addRow(_ row: Row, columnGap: Int, naturalWidths: [Int: Int]) {
        let styles = row.columns.map { ResolvedTextStyle($0.style, inheriting: row.style) }
        let pitch = DotPitch(dpi: dpi)
        let claims = row.columns.enumerated().map { index, column -> ColumnWidths.Claim in
            switch column.width {
            case .fixed(let length): return .fixed(pitch.dots(length))
            case .fraction(let share): return .fraction(share)
            case .auto: return .natural(naturalWidths[index] ?? 0)
            }
        }
        let (widths, overflows) = ColumnWidths.distribute(claims, available: width, gap: columnGap)
        if overflows {
            problems.append(RenderProblem(kind: .tooWide,
                message: "The row's fixed and automatic columns are wider than the printable width "
                    + "(\(width) dots); columns on the right were narrowed.", location: row.location))
        }
        var x = left
        var columns: [(layout: PangoTextLayout, x: Int, width: Int, inverse: Bool)] = []
        for (index, column) in row.columns.enumerated() {
            defer { x += widths[index] + columnGap }
            guard widths[index] > 0 else { continue }
            let layout = makeText(column.content, style: styles[index], width: widths[index], location: column.location)
            columns.append((layout, x, widths[index], styles[index].inverse))
        }
        // Every column wraps within its own width; the row is as tall as the tallest.
        let rowHeight = columns.map { $0.layout.size.height }.max() ?? 0
        for column in columns {
            place(column.layout, x: column.x, width: column.width, height: rowHeight, inverse: column.inverse)
        }
        height += rowHeight
    }

    /// Solid: one bar. Dashed: 2 mm dashes with 1 mm gaps (clearly dashed at
    /// arm's length, never mistaken for a faded solid line). Double: two bars
    /// with a gap as thick as one bar (at least 2 dots, so they stay apart).
    private mutating func addRule(_ rule: Rule, thickness: Int, pitch: DotPitch) {
        switch rule.style {
        case .solid:
            operations.append(.fill(x: left, y: height, width: width, height: thickness))
            height += thickness
        case .dashed:
            let across = DotPitch(dpi: dpi)
            let dash = max(2, across.dots(.millimetres(2))), gap = max(1, across.dots(.millimetres(1)))
            var x = left
            while x < left + width {
                operations.append(.fill(x: x, y: height, width: min(dash, left + width - x), height: thickness))
                x += dash + gap
            }
            height += thickness
        case .double:
            let gap = max(2, thickness)
            operations.append(.fill(x: left, y: height, width: width, height: thickness))
            operations.append(.fill(x: left, y: height + thickness + gap, width: width, height: thickness))
            height += 2 * thickness + gap
        }
    }

    private mutating func skip(_ what: String, at location: SourceLocation) {
        problems.append(RenderProblem(kind: .notDrawnYet,
            message: "Not drawn yet: \(what) is left out of this page.", location: location))
    }

    private func codePoints(_ character: Character) -> String {
        character.unicodeScalars.map { "U+" + String($0.value, radix: 16, uppercase: true) }.joined(separator: " ")
    }
}
