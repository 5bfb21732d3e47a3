/// A 1-bit picture of one piece of paper, in the layout every raster command
/// of ESC/POS and ZPL II takes: rows top to bottom, each packed into
/// `bytesPerRow` bytes, the most significant bit of a byte the leftmost dot,
/// **1 = ink**. Padding bits past `width` in a row's last byte are always 0.
///
/// It is the layout of a PWG `black_1` raster page as well, so a rendered
/// page's bytes become a bitmap without repacking.
public struct MonoBitmap: Hashable, Sendable {
    /// Dots across.
    public let width: Int
    /// Dot rows, top to bottom.
    public let height: Int
    /// `height` rows of `bytesPerRow` bytes.
    public private(set) var rows: [UInt8]

    /// Bytes in one row: `ceil(width / 8)`.
    public var bytesPerRow: Int { Self.bytesPerRow(width: width) }

    /// Bytes in one row of a bitmap `width` dots wide.
    public static func bytesPerRow(width: Int) -> Int { (width + 7) / 8 }

    /// A bitmap with no ink.
    public init(width: Int, height: Int) {
        precondition(width > 0 && height > 0, "a bitmap has at least one dot")
        self.width = width; self.height = height
        rows = [UInt8](repeating: 0, count: height * Self.bytesPerRow(width: width))
    }

    /// A bitmap from packed rows; nil when a dimension is not positive or the
    /// byte count is not `height * ceil(width / 8)`. Padding bits are cleared.
    public init?(width: Int, height: Int, rows: [UInt8]) {
        guard width > 0, height > 0, rows.count == height * Self.bytesPerRow(width: width) else { return nil }
        self.width = width; self.height = height; self.rows = rows
        clearPadding()
    }

    /// A bitmap drawn from text, one string per row, `#` (or `X`) for ink and
    /// anything else for paper: for tests and small fixed marks.
    public init?(picture: [String]) {
        guard let width = picture.first?.count, width > 0, picture.allSatisfy({ $0.count == width }) else { return nil }
        self.init(width: width, height: picture.count)
        for (y, line) in picture.enumerated() {
            for (x, character) in line.enumerated() where character == "#" || character == "X" { setInk(true, x: x, y: y) }
        }
    }

    /// True when the dot at (x, y) is ink.
    public func ink(x: Int, y: Int) -> Bool {
        precondition((0..<width).contains(x) && (0..<height).contains(y), "dot outside the bitmap")
        return rows[y * bytesPerRow + x / 8] & (0x80 >> UInt8(x % 8)) != 0
    }

    /// Sets or clears the ink at (x, y).
    public mutating func setInk(_ ink: Bool, x: Int, y: Int) {
        precondition((0..<width).contains(x) && (0..<height).contains(y), "dot outside the bitmap")
        let index = y * bytesPerRow + x / 8, mask: UInt8 = 0x80 >> UInt8(x % 8)
        if ink { rows[index] |= mask } else { rows[index] &= ~mask }
    }

    /// The packed bytes of row `y`.
    /// For each row, how many of its bytes reach its last inked one: 0 for a
    /// white row, `bytesPerRow` for one inked at its right edge. The encoders
    /// send only these bytes of a row, and feed the white rows.
    public func inkedBytesPerRow() -> [Int] {
        let rowBytes = bytesPerRow
        return rows.withUnsafeBufferPointer { buffer in
            (0..<height).map { y in
                var end = (y + 1) * rowBytes
                let start = y * rowBytes
                while end > start && buffer[end - 1] == 0 { end -= 1 }
                return end - start
            }
        }
    }

    /// The white bytes every row of `band` starts with: how far right of
    /// the left edge the band's ink begins, in bytes.
    public func leadingWhiteBytes(rows band: Range<Int>) -> Int {
        let rowBytes = bytesPerRow
        return rows.withUnsafeBufferPointer { buffer in
            var lead = rowBytes
            for y in band {
                let start = y * rowBytes
                var x = 0
                while x < lead && buffer[start + x] == 0 { x += 1 }
                lead = x
            }
            return lead
        }
    }

    public func row(_ y: Int) -> ArraySlice<UInt8> {
        precondition((0..<height).contains(y), "row outside the bitmap")
        return rows[(y * bytesPerRow)..<((y + 1) * bytesPerRow)]
    }

    /// The dots of columns `columns` on every row, as a bitmap of their own:
    /// the printable area cut out of a page drawn over the whole paper width
    /// (a 639-dot page of an 80 mm roll, columns 32..<608, gives the 576 dots
    /// the head prints). Nil when the range is empty or leaves the bitmap.
    public func columns(_ columns: Range<Int>) -> MonoBitmap? {
        guard !columns.isEmpty, columns.lowerBound >= 0, columns.upperBound <= width else { return nil }
        var window = MonoBitmap(width: columns.count, height: height)
        let shift = columns.lowerBound % 8, firstByte = columns.lowerBound / 8
        let source = bytesPerRow, target = window.bytesPerRow
        for y in 0..<height {
            for byte in 0..<target {
                // Each output byte straddles at most two input bytes.
                let index = y * source + firstByte + byte
                let high = rows[index] << UInt8(shift)
                let low: UInt8 = shift > 0 && firstByte + byte + 1 < source ? rows[index + 1] >> UInt8(8 - shift) : 0
                window.rows[y * target + byte] = high | low
            }
        }
        window.clearPadding()
        return window
    }

    // Padding bits would print as ink on a printer that does not mask them.
    private mutating func clearPadding() {
        let spare = bytesPerRow * 8 - width
        guard spare > 0 else { return }
        let keep: UInt8 = 0xFF << UInt8(spare)
        for y in 0..<height { rows[y * bytesPerRow + bytesPerRow - 1] &= keep }
    }
}
