public import PrintModel

/// The bytes of a job as they are made, with the modes the printer is left
/// in, so a setting is sent only when it changes.
struct EscPosStream {
    var bytes = EscPosCommand.initialize
    /// `GS P` sent: feeds and positions count in dots from here on.
    private(set) var unitsSet = false
    /// The `ESC 3` line spacing in force; nil: the printer's default.
    var spacing: Int?
    /// `ESC E` and `GS !` as `ESC @` leaves them.
    var bold = false
    var size = (1, 1)
    /// The `GS L` left margin in force, in dots.
    var leftMargin = 0
    /// The code page in force, for the text's bytes.
    var text: EscPosTextEncoder

    init(codePages: [EscPosCodePage]) { text = EscPosTextEncoder(codePages: codePages) }

    mutating func setUnits(_ units: [UInt8]) {
        guard !unitsSet else { return }
        bytes += units
        unitsSet = true
    }
}

extension EscPosLanguage {
    /// Font A (12 x 24 dots) on a 180 or 203 dpi head, and the text its code
    /// pages print; nil on other heads, whose fonts KioskPrint does not know.
    public var deviceTextOptions: DeviceTextOptions? {
        guard [180, 203].contains(profile.dpi) else { return nil }
        let pages = EscPosCodePage.pages(for: profile)
        return DeviceTextOptions(font: .escPosFontA) { text in
            var encoder = EscPosTextEncoder(codePages: pages)
            return encoder.encode(text) != nil
        }
    }

    /// Feeds to the line's cells, sets the spacing to the rows left to the
    /// line, prints each run at its column in its style, and ends with `LF`:
    /// the paper moves exactly the line's rows, as the drawing would have.
    /// Refuses a run with a character the code pages lack.
    func appendLine(_ line: DeviceTextLine, piece index: Int, to stream: inout EscPosStream) throws(RawJobError) {
        if let units = EscPosCommand.motionUnits(dotsPerInch: profile.dpi) { stream.setUnits(units) }
        // Runs are placed from the printable area's left edge.
        if stream.leftMargin != 0 {
            stream.bytes += EscPosCommand.leftMargin(units: 0)
            stream.leftMargin = 0
        }
        let advance = line.height - line.cellTop
        if stream.spacing != advance {
            stream.bytes += EscPosCommand.lineSpacing(units: advance)
            stream.spacing = advance
        }
        for (index, run) in line.runs.enumerated() {
            // A line starts at the left margin: the first run at 0 needs no ESC $.
            if index > 0 || run.x != 0 { stream.bytes += EscPosCommand.absolutePosition(units: run.x) }
            if stream.bold != run.bold { stream.bytes += EscPosCommand.emphasized(run.bold); stream.bold = run.bold }
            let size = (run.widthScale, run.heightScale)
            if stream.size != size {
                stream.bytes += EscPosCommand.characterSize(width: run.widthScale, height: run.heightScale)
                stream.size = size
            }
            guard let text = stream.text.encode(run.text) else {
                throw .deviceTextMisplaced(piece: index, row: line.top, printer: profile.makeAndModel,
                                           problem: "\"\(run.text)\" has characters none of its code pages has")
            }
            stream.bytes += text
        }
        stream.bytes += EscPosCommand.lineFeed
    }

    /// Refuses a line the printer would not print where it says: out of
    /// order, outside the piece, over ink, too tall for its rows, or past
    /// the head (`appendLine` refuses what the code pages lack).
    func check(_ line: DeviceTextLine, piece index: Int, in piece: MonoBitmap, after row: Int, used: [Int]) throws(RawJobError) {
        let font = DeviceFont.escPosFontA
        func refuse(_ problem: String) -> RawJobError {
            .deviceTextMisplaced(piece: index, row: line.top, printer: profile.makeAndModel, problem: problem)
        }
        guard line.top >= row, line.top + line.height <= piece.height else {
            throw refuse("it overlaps the line before it or runs past the piece's \(piece.height) rows")
        }
        guard (line.top..<(line.top + line.height)).allSatisfy({ used[$0] == 0 }) else {
            throw refuse("the drawing has ink on its rows")
        }
        let tallest = line.runs.map { $0.height(in: font) }.max() ?? 0
        guard line.cellTop >= 0, line.cellTop + tallest <= line.height,
              line.height - line.cellTop <= 255 else {
            throw refuse("its \(line.height) rows do not hold its characters' cells")
        }
        var right = 0
        for run in line.runs {
            guard (1...font.maximumScale).contains(run.widthScale), (1...font.maximumScale).contains(run.heightScale) else {
                throw refuse("a magnification of \(run.widthScale) x \(run.heightScale)")
            }
            guard run.x >= right, run.x + run.width(in: font) <= profile.printableDots else {
                throw refuse("the run \"\(run.text)\" overlaps another or passes the \(profile.printableDots) printable dots")
            }
            right = run.x + run.width(in: font)
        }
    }
}
