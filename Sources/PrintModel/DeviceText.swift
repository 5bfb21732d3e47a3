import Foundation

/// A printer's resident font, the one a line of text sent as characters
/// prints in: fixed cells, magnified in whole steps. ESC/POS's Font A is
/// 12 x 24 dots on 180 and 203 dpi heads.
public struct DeviceFont: Hashable, Sendable {
    /// Dots across one character cell, unmagnified.
    public var cellWidth: Int
    /// Dots down one character cell, unmagnified.
    public var cellHeight: Int
    /// Rows from the cell's top to the letters' baseline, unmagnified: where
    /// a drawn line's baseline is matched, so the printed words sit where the
    /// drawing put them.
    public var baseline: Int
    /// The largest whole magnification (`GS !` goes to 8).
    public var maximumScale: Int

    public init(cellWidth: Int, cellHeight: Int, baseline: Int, maximumScale: Int) {
        self.cellWidth = cellWidth; self.cellHeight = cellHeight; self.baseline = baseline; self.maximumScale = maximumScale
    }

    /// ESC/POS Font A: 12 x 24 dots, the font a TM-series printer starts in.
    public static let escPosFontA = DeviceFont(cellWidth: 12, cellHeight: 24, baseline: 20, maximumScale: 8)
}

/// Text the printer prints in its own font on one line of a piece: the rows
/// `top..<top + height` belong to it alone (nothing else is drawn there), its
/// characters' cells start `cellTop` rows down, and the paper moves exactly
/// `height` rows for it, so the piece is as long as when it is drawn.
public struct DeviceTextLine: Hashable, Sendable {
    /// The first row the line owns, from the piece's top.
    public var top: Int
    /// The rows it owns.
    public var height: Int
    /// Rows from `top` to the top of the characters' cells.
    public var cellTop: Int
    /// Its runs, left to right, not overlapping.
    public var runs: [DeviceTextRun]

    public init(top: Int, height: Int, cellTop: Int, runs: [DeviceTextRun]) {
        self.top = top; self.height = height; self.cellTop = cellTop; self.runs = runs
    }

    /// The line `dx` dots to the right (a piece cut out of a wider page).
    public func shifted(dx: Int) -> DeviceTextLine {
        DeviceTextLine(top: top, height: height, cellTop: cellTop,
                       runs: runs.map { run in
                           var moved = run
                           moved.x += dx
                           return moved
                       })
    }
}

/// Characters printed from one position in one style.
public struct DeviceTextRun: Hashable, Sendable {
    /// Dots from the printable area's left edge to the first cell.
    public var x: Int
    /// The characters, composed (NFC): one cell each.
    public var text: String
    public var bold: Bool
    /// Cells magnified this many times across (1...8).
    public var widthScale: Int
    /// Cells magnified this many times down (1...8).
    public var heightScale: Int

    public init(x: Int, text: String, bold: Bool, widthScale: Int = 1, heightScale: Int = 1) {
        self.x = x; self.text = text; self.bold = bold; self.widthScale = widthScale; self.heightScale = heightScale
    }

    /// The characters' cells: one per scalar once composed.
    public var cells: Int { text.precomposedStringWithCanonicalMapping.unicodeScalars.count }

    /// Dots across the run in `font`.
    public func width(in font: DeviceFont) -> Int { cells * font.cellWidth * widthScale }

    /// Dots down the run's cells in `font`.
    public func height(in font: DeviceFont) -> Int { font.cellHeight * heightScale }
}

/// Which text a drawing may leave to the printer's font, and which font that is.
public struct DeviceTextOptions: Sendable {
    public var font: DeviceFont
    /// True when the printer can print every character of the text (its code pages have them).
    public var prints: @Sendable (String) -> Bool

    public init(font: DeviceFont, prints: @escaping @Sendable (String) -> Bool) {
        self.font = font; self.prints = prints
    }
}
