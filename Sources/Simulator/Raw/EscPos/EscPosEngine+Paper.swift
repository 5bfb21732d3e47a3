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

    /// Font A's cell, 12 x 24 dots on 180 and 203 dpi heads.
    static let cellWidth = 12, cellHeight = 24

    /// Characters into the line buffer at the print position, in the
    /// settings in force; a run goes on while nothing changes.
    mutating func addText(_ bytes: ArraySlice<UInt8>) {
        if var last = lineRuns.last, last.codePage == codePage, last.bold == bold, last.widthScale == widthScale,
           last.heightScale == heightScale, last.x + last.bytes.count * Self.cellWidth * widthScale == leftMargin + printPosition {
            last.bytes += bytes
            lineRuns[lineRuns.count - 1] = last
        } else {
            lineRuns.append(EscPosTextRun(x: leftMargin + printPosition, bytes: Array(bytes), codePage: codePage, bold: bold,
                                          widthScale: widthScale, heightScale: heightScale))
        }
        printPosition += bytes.count * Self.cellWidth * widthScale
        if leftMargin + printPosition > configuration.printableWidth {
            record.problems.append("text runs past the printable \(configuration.printableWidth) dots (to dot \(leftMargin + printPosition)); "
                                   + "a printer wraps it onto another line")
        }
    }

    /// Prints the line buffer's text (if any) at the current row, then feeds
    /// `dots`. The characters' cells hang from the row; a line spacing
    /// shorter than the tallest cell is noted, since the next line would
    /// print over its bottom.
    mutating func printLine(thenFeed dots: Int, command: String) {
        let runs = lineRuns
        lineRuns.removeAll()
        printPosition = 0
        guard executes(command) else { return }
        if !runs.isEmpty {
            record.uncut.text.append(EscPosTextLine(row: record.uncut.bitmap.height, runs: runs))
            let tallest = (runs.map(\.heightScale).max() ?? 1) * Self.cellHeight
            if dots < tallest {
                record.problems.append("\(command) fed \(dots) dots after a line of \(tallest)-dot characters; "
                                       + "the next line prints over them")
            }
        }
        record.uncut.bitmap.appendBlankRows(dots)
    }

    /// Prints `image` at the left edge of the printable area, row after row.
    mutating func printImage(_ image: DotBitmap, command: String) {
        guard executes("\(command) (\(image.height) rows)") else { return }
        if leftMargin + image.width > configuration.printableWidth {
            record.problems.append("\(command): an image \(image.width) dots wide from the \(leftMargin)-dot margin is wider than "
                                   + "the printable \(configuration.printableWidth) dots; the printer drops the dots past the edge")
        }
        guard leftMargin % 8 == 0 else {
            // From a left margin (GS L) inside a byte: dot by dot.
            let top = record.uncut.bitmap.height
            record.uncut.bitmap.appendBlankRows(image.height)
            record.uncut.bitmap.draw(image, atX: leftMargin, y: top)
            return
        }
        // From the left margin (GS L), whole bytes in: each row behind as many white bytes.
        let white = [UInt8](repeating: 0, count: leftMargin / 8)
        for row in 0..<image.height {
            let start = row * image.bytesPerRow
            let bytes = image.packed[start..<start + image.bytesPerRow]
            if white.isEmpty { record.uncut.bitmap.appendRow(bytes) } else { record.uncut.bitmap.appendRow(white + bytes) }
        }
    }

    /// Ends the piece on the roll with `cut`, after its extra feed. A cut is
    /// taken only at the beginning of a line, as the guide says: with text
    /// waiting in the line buffer it is ignored.
    mutating func cut(_ cut: EscPosCut) {
        guard lineRuns.isEmpty else {
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
