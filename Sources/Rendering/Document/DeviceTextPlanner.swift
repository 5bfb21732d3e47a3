import Foundation
public import PrintModel

/// Decides which lines of a composed page the printer prints in its own
/// font (`delivery = "native"`) and takes them out of the drawing.
///
/// Text goes to the printer only when the printer's font can show it as
/// the drawing placed it: not inverse or underlined, not shortened with
/// "…", every character in the printer's code pages, and nothing else
/// inked on its rows. A wrapped paragraph goes line by line, as it was
/// wrapped. Everything else (logos, barcodes, rules, inverse headings, text
/// whose letters the printer lacks) stays drawn, so nothing is dropped and
/// the look changes only where the printer's font stands in for the drawn one.
///
/// A line keeps the rows the drawing gave it, and the printer moves the
/// paper exactly that far for it: the piece's length, and so the cut, is
/// the same whichever way the text travels.
struct DeviceTextPlanner {
    let options: DeviceTextOptions
    let dpi: Int

    /// Which drawing step, by its placement and its place in it.
    private struct StepKey: Hashable {
        var placement: Int
        var operation: Int
    }

    /// One line of a step (a fill or a bitmap is one piece), where it lands on the page.
    private struct Piece {
        var step: StepKey
        var rows: Range<Int>
        /// The piece as printer text; nil when it must be drawn.
        var candidate: Candidate?
    }

    private struct Candidate {
        var run: DeviceTextRun?   // nil: blank, nothing to print (an empty cell)
        var baseline: Int
    }

    /// `page` without the steps the printer prints itself, and those steps as
    /// lines; lines starting on a row in `keepingDrawn` stay drawn.
    func split(_ page: ComposedPage, setup: PageSetup, keepingDrawn: Set<Int> = []) -> (drawn: ComposedPage, lines: [DeviceTextLine]) {
        guard !setup.landscape else { return (page, []) }
        let content = setup.content
        let printable = content.printableLeftDots..<(content.printableLeftDots + content.printableWidthDots)
        var pieces: [Piece] = []
        for (index, placement) in page.placements.enumerated() {
            let shift = placement.y - placement.rows.lowerBound
            for (number, operation) in placement.operations.enumerated() {
                let rows = operation.rows
                guard !rows.isEmpty, rows.overlaps(placement.rows) else { continue }
                let key = StepKey(placement: index, operation: number)
                // A step cut by the page's edge is drawn: its lines are not all on this page.
                let whole = placement.rows.contains(rows.lowerBound) && rows.upperBound <= placement.rows.upperBound
                pieces += self.pieces(of: operation, key: key, shift: shift, printable: printable, whole: whole)
            }
        }
        // Groups of pieces whose rows overlap; a group is a printer line when
        // all of it can be, and a step leaves the drawing only when every one
        // of its lines did: a step that stays drawn takes its groups with it.
        let groups = Self.overlapping(pieces)
        var lines = groups.map { group in line(of: group).flatMap { keepingDrawn.contains($0.top) ? nil : $0 } }
        var changed = true
        while changed {
            changed = false
            let drawnSteps = Set(zip(groups, lines).filter { $0.1 == nil }.flatMap { $0.0.map(\.step) })
            for index in groups.indices where lines[index] != nil && groups[index].contains(where: { drawnSteps.contains($0.step) }) {
                lines[index] = nil
                changed = true
            }
        }
        var removed: [Int: Set<Int>] = [:]
        for (group, line) in zip(groups, lines) where line != nil {
            for piece in group { removed[piece.step.placement, default: []].insert(piece.step.operation) }
        }
        var drawn = page
        for (index, operations) in removed {
            drawn.placements[index].operations = drawn.placements[index].operations.enumerated()
                .filter { !operations.contains($0.offset) }.map(\.element)
        }
        return (drawn, lines.compactMap { $0 }.sorted { $0.top < $1.top })
    }

    /// The step's pieces on the page: one per line of text, one for anything else.
    private func pieces(of operation: DrawOperation, key: StepKey, shift: Int, printable: Range<Int>, whole: Bool) -> [Piece] {
        let rows = operation.rows
        let landed = (rows.lowerBound + shift)..<(rows.upperBound + shift)
        guard whole, case .text(let layout, let x, _, let clear) = operation, !clear, !layout.style.underline,
              !layout.isEllipsized else {
            return [Piece(step: key, rows: landed, candidate: nil)]
        }
        let text = layout.text.precomposedStringWithCanonicalMapping
        if text.allSatisfy({ $0 == " " }) { return [Piece(step: key, rows: landed, candidate: Candidate(run: nil, baseline: 0))] }
        let extents = layout.lineExtents
        // Every line or none: a paragraph half in the printer's font would be drawn anyway.
        guard !extents.isEmpty, extents.allSatisfy({ options.prints($0.text) }) else {
            return [Piece(step: key, rows: landed, candidate: nil)]
        }
        let box = layout.width ?? layout.size.width
        return extents.map { extent in
            let top = landed.lowerBound + extent.rows.lowerBound
            let rows = top..<(landed.lowerBound + extent.rows.upperBound)
            if extent.text.isEmpty { return Piece(step: key, rows: rows, candidate: Candidate(run: nil, baseline: top)) }
            guard let run = run(extent.text, style: layout.style, column: x, box: box, within: printable) else {
                return Piece(step: key, rows: rows, candidate: nil)
            }
            return Piece(step: key, rows: rows, candidate: Candidate(run: run, baseline: top + extent.baseline))
        }
    }

    /// A line of text as the printer's run: magnified to about the drawn size
    /// (an em of 24 dots or less is Font A as it is), less wide where that
    /// would not fit across the paper, and placed as the text was aligned
    /// in its column, so a right-aligned price keeps its right edge and a
    /// centred heading its centre. The printer's letters are wider than most
    /// drawn ones, so a run may reach past its column; `line(of:)` keeps
    /// the runs apart. Nil when even unmagnified it does not fit.
    private func run(_ text: String, style: ResolvedTextStyle, column x: Int, box: Int, within printable: Range<Int>) -> DeviceTextRun? {
        let font = options.font
        let em = style.size * Double(dpi) / 72
        let scale = min(font.maximumScale, max(1, Int((em / Double(font.cellHeight)).rounded())))
        var run = DeviceTextRun(x: 0, text: text.precomposedStringWithCanonicalMapping, bold: style.bold,
                                widthScale: scale, heightScale: scale)
        while run.widthScale >= 1 {
            let width = run.width(in: font)
            run.x = switch style.align {
            case .left: x
            case .center: x + (box - width) / 2
            case .right: x + box - width
            }
            // Centred text wider than its column is centred on the paper's printable part instead.
            if style.align == .center, run.x < printable.lowerBound || run.x + width > printable.upperBound {
                run.x = printable.lowerBound + (printable.count - width) / 2
            }
            if run.x >= printable.lowerBound, run.x + width <= printable.upperBound { return run }
            run.widthScale -= 1
        }
        return nil
    }

    /// Pieces in groups whose rows overlap, top to bottom.
    private static func overlapping(_ pieces: [Piece]) -> [[Piece]] {
        var groups: [[Piece]] = []
        var bottom = Int.min
        for piece in pieces.sorted(by: { $0.rows.lowerBound < $1.rows.lowerBound }) {
            if piece.rows.lowerBound < bottom, !groups.isEmpty {
                groups[groups.count - 1].append(piece)
                bottom = max(bottom, piece.rows.upperBound)
            } else {
                groups.append([piece])
                bottom = piece.rows.upperBound
            }
        }
        return groups
    }

    /// The group as one printer line, when every piece in it is printer text
    /// starting on the same row, the runs keep a cell apart, and their cells
    /// fit in the rows the group owns.
    private func line(of group: [Piece]) -> DeviceTextLine? {
        let candidates = group.compactMap(\.candidate)
        guard candidates.count == group.count, let top = group.first?.rows.lowerBound,
              group.allSatisfy({ $0.rows.lowerBound == top }) else { return nil }
        let height = (group.map(\.rows.upperBound).max() ?? top) - top
        let font = options.font
        // One height for the line's characters (ESC/POS lines up mixed
        // heights by their bottoms, not as the drawing did): the smallest
        // asked for, and no taller than the line's rows.
        guard let wanted = candidates.compactMap(\.run).map(\.heightScale).min() else { return nil }  // blank: nothing to send
        let heightScale = min(wanted, height / font.cellHeight)
        guard heightScale >= 1 else { return nil }
        let runs = candidates.compactMap(\.run).map { run in
            var run = run
            run.heightScale = heightScale
            return run
        }.sorted { $0.x < $1.x }
        // A cell apart, as the drawing keeps its columns: words that touch would read as one.
        for (left, right) in zip(runs, runs.dropFirst()) where left.x + left.width(in: font) + font.cellWidth > right.x {
            return nil
        }
        // Baselines matched where they can be; the cells stay inside the line's rows.
        let cell = font.cellHeight * heightScale
        let baseline = candidates.filter { $0.run != nil }.map(\.baseline).max() ?? top
        let cellTop = min(max(0, baseline - top - font.baseline * heightScale), height - cell)
        // ESC 3 sets at most 255 units of line spacing.
        guard height - cellTop <= 255 else { return nil }
        return DeviceTextLine(top: top, height: height, cellTop: cellTop, runs: runs)
    }
}
