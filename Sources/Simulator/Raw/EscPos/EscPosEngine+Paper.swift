// The paper model: one continuous tape of dot rows at the printable width.
// Printing and feeding add rows to the piece on the roll; a cut ends it.
// The cutter sits at the print line, so a piece's length is exactly what was
// printed and fed since the previous cut: the figure the cut plan must match.

extension EscPosEngine {
    /// Whether a printing command runs now. A stopped printer (paper out,
    /// cover open, offline, cutter error) executes only real-time commands;
    /// what it skips is noted, so a test sees what did not reach the paper.
    mutating func executes(_ command: String) -> Bool {
        guard state.canPrint else {
            record.notExecuted.append(command)
            return false
        }
        return true
    }

    /// Prints the line buffer's text (if any) at the current row, then feeds `dots`.
    mutating func printLine(thenFeed dots: Int, command: String) {
        let text = lineText
        lineText.removeAll()
        guard executes(command) else { return }
        if !text.isEmpty {
            let line = String(text.map { Character(Unicode.Scalar($0)) })
            record.uncut.text.append(EscPosTextLine(row: record.uncut.bitmap.height, text: line))
        }
        record.uncut.bitmap.appendBlankRows(dots)
    }

    /// Prints `image` at the left edge of the printable area, row after row.
    mutating func printImage(_ image: DotBitmap, command: String) {
        guard executes("\(command) (\(image.height) rows)") else { return }
        if image.width > configuration.printableWidth {
            record.problems.append("\(command): an image \(image.width) dots wide is wider than the printable "
                                   + "\(configuration.printableWidth) dots; the printer drops the dots past the edge")
        }
        for row in 0..<image.height {
            let start = row * image.bytesPerRow
            record.uncut.bitmap.appendRow(image.packed[start..<start + image.bytesPerRow])
        }
    }

    /// Ends the piece on the roll with `cut`, after its extra feed. A cut is
    /// taken only at the beginning of a line, as the guide says: with text
    /// waiting in the line buffer it is ignored.
    mutating func cut(_ cut: EscPosCut) {
        guard lineText.isEmpty else {
            record.problems.append("GS V \(cut.mode) came with text waiting in the line buffer; a printer cuts only "
                                   + "at the beginning of a line, so it was ignored (send LF first)")
            return
        }
        guard executes("GS V \(cut.mode)") else { return }
        record.uncut.bitmap.appendBlankRows(cut.extraFeedDots)
        var piece = record.uncut
        piece.cut = cut
        record.pieces.append(piece)
        record.uncut = EscPosPiece(bitmap: DotBitmap(width: configuration.printableWidth), cut: nil, text: [])
    }
}
