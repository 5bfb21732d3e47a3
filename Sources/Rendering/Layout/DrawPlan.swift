import PrintModel
import Templates

/// The first pass: blocks measured and turned into drawing steps, stacked
/// from the top of a column `width` dots wide starting at dot `left`.
struct DrawPlan {
    let left: Int
    let width: Int
    let context: LayoutContext
    /// Content height so far, in dots.
    var height = 0
    var operations: [DrawOperation] = []
    var problems: [RenderProblem] = []
    /// Offsets (from the top) where a cut may split the content: between blocks
    /// and between the lines of a table.
    var breaks: [Int] = []

    init(left: Int, width: Int, context: LayoutContext) {
        self.left = left; self.width = width; self.context = context
    }

    /// Adds `nodes` in order. Consecutive rows declared alike (a receipt's
    /// item lines) form a table: their automatic columns share one width, so
    /// quantities and prices line up from one line to the next.
    mutating func addBlocks(_ nodes: [LayoutNode], recordingBreaks: Bool) {
        var index = nodes.startIndex
        while index < nodes.endIndex {
            if case .row(let first) = nodes[index] {
                var table = [first]
                index += 1
                while index < nodes.endIndex, case .row(let next) = nodes[index],
                      next.columns.map(\.width) == first.columns.map(\.width) {
                    table.append(next)
                    index += 1
                }
                addTable(table, recordingBreaks: recordingBreaks)
            } else {
                add(nodes[index])
                index += 1
            }
            if recordingBreaks { breaks.append(height) }
        }
    }

    mutating func add(_ node: LayoutNode) {
        switch node {
        case .text(let block):
            let style = ResolvedTextStyle(block.style)
            let layout = makeText(block.content, style: style, width: width, location: block.location)
            let blockHeight = layout.size.height
            place(layout, x: left, width: width, height: blockHeight, inverse: style.inverse)
            height += blockHeight
        case .row(let row):
            addTable([row], recordingBreaks: false)
        case .rule(let rule):
            addRule(rule, thickness: max(1, context.vertical.dots(rule.thickness)))
        case .space(let length, _):
            height += context.vertical.dots(length)
        case .image(let image): addImage(image)
        case .barcode(let barcode): addBarcode(barcode)
        case .box(let box): addBox(box)
        case .cut(let location):
            report(.misplacedCut, "A <cut/> inside a box or a header cannot split the paper; it was ignored. "
                + "Put <cut/> between the template's top-level blocks.", at: location)
        case .section(let section):
            report(.unboundSection, "The section \"\(section.name)\" was not bound to data and was left out. "
                + "Render the template with its data (--data FILE.json).", at: section.location)
        }
    }

    /// Text at (x, current top); inverse fills the block's rectangle first.
    /// Drawing steps whose text keeps its laid-out glyphs; past this many, a
    /// paragraph lets them go once measured and is laid out again when drawn
    /// (a receipt or a label never gets here; a long report does).
    static let glyphsKeptUpTo = 2_000

    mutating func place(_ layout: PangoTextLayout, x: Int, width: Int, height blockHeight: Int, inverse: Bool) {
        if inverse { operations.append(.fill(x: x, y: height, width: width, height: blockHeight)) }
        operations.append(.text(layout, x: x, y: height, clear: inverse))
        // A long document keeps its paragraphs' text, not their glyphs, until
        // each is drawn: a 20,000-line report would hold every line's glyphs.
        if operations.count > Self.glyphsKeptUpTo { layout.releaseLines() }
    }

    /// A laid-out paragraph, with its missing glyphs and truncation reported.
    mutating func makeText(_ text: String, style: ResolvedTextStyle, width: Int?,
                           location: SourceLocation) -> PangoTextLayout {
        let layout = PangoTextLayout(text: text, style: style, width: width, context: context.text)
        if layout.unknownGlyphCount > 0 {
            let missing = layout.missingCharacters()
            let named = missing.map { "\"\($0)\" (\(codePoints($0)))" }.joined(separator: ", ")
            report(.missingGlyphs,
                   "The font \"\(style.font)\" and its fallbacks have no glyph for \(named.isEmpty ? "some characters" : named) "
                    + "in \"\(text)\"; install a font that covers them (e.g. fonts-noto-cjk) or change the text.",
                   at: location)
        }
        if layout.isEllipsized {
            report(.truncated, "\"\(text)\" does not fit on one line and was shortened with \"…\" (wrap: none).",
                   at: location)
        }
        return layout
    }

    /// Rows of one table: each automatic column is as wide as its widest cell.
    mutating func addTable(_ rows: [Row], recordingBreaks: Bool) {
        var shared: [Int: Int] = [:]
        for row in rows {
            for (index, natural) in naturalWidths(row) { shared[index] = max(shared[index] ?? 0, natural) }
        }
        for (number, row) in rows.enumerated() {
            if recordingBreaks, number > 0 { breaks.append(height) }
            addRow(row, naturalWidths: shared)
        }
    }

    /// The natural (one-line) width of each automatic column, by column index.
    private func naturalWidths(_ row: Row) -> [Int: Int] {
        var widths: [Int: Int] = [:]
        for (index, column) in row.columns.enumerated() where column.width == .auto {
            let style = ResolvedTextStyle(column.style, inheriting: row.style)
            widths[index] = PangoTextLayout(text: column.content, style: style, width: nil, context: context.text).size.width
        }
        return widths
    }

    private mutating func addRow(_ row: Row, naturalWidths: [Int: Int]) {
        let styles = row.columns.map { ResolvedTextStyle($0.style, inheriting: row.style) }
        let claims = row.columns.enumerated().map { index, column -> ColumnWidths.Claim in
            switch column.width {
            case .fixed(let length): return .fixed(context.horizontal.dots(length))
            case .fraction(let share): return .fraction(share)
            case .auto: return .natural(naturalWidths[index] ?? 0)
            }
        }
        let gap = context.columnGap
        let (widths, overflows) = ColumnWidths.distribute(claims, available: width, gap: gap)
        if overflows {
            report(.tooWide, "The row's fixed and automatic columns are wider than the printable width "
                + "(\(width) dots); columns on the right were narrowed.", at: row.location)
        }
        var x = left
        var columns: [(layout: PangoTextLayout, x: Int, width: Int, inverse: Bool)] = []
        for (index, column) in row.columns.enumerated() {
            defer { x += widths[index] + gap }
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
    private mutating func addRule(_ rule: Rule, thickness: Int) {
        switch rule.style {
        case .solid:
            operations.append(.fill(x: left, y: height, width: width, height: thickness))
            height += thickness
        case .dashed:
            let dash = max(2, context.horizontal.dots(.millimetres(2)))
            let gap = max(1, context.horizontal.dots(.millimetres(1)))
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

    mutating func report(_ kind: RenderProblem.Kind, _ message: String, at location: SourceLocation) {
        problems.append(RenderProblem(kind: kind, message: message, location: location))
    }

    /// Where a block of `blockWidth` dots starts, aligned inside the column.
    func alignedX(_ blockWidth: Int, _ align: TextStyle.Alignment) -> Int {
        switch align {
        case .left: left
        case .center: left + max(0, (width - blockWidth) / 2)
        case .right: left + max(0, width - blockWidth)
        }
    }

    private func codePoints(_ character: Character) -> String {
        character.unicodeScalars.map { "U+" + String($0.value, radix: 16, uppercase: true) }.joined(separator: " ")
    }
}
