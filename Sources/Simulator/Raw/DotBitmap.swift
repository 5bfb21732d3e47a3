/// A one-bit image in printer dots: what a simulated raw printer put on
/// paper. A set dot is ink.
///
/// Rows are packed eight dots to a byte, the leftmost dot in the highest bit,
/// as ESC/POS raster and ZPL graphic fields carry them, so a test can compare
/// the simulator's paper with the bitmap an encoder was given, dot for dot.
public struct DotBitmap: Sendable, Hashable {
    /// Dots per row.
    public let width: Int
    /// Rows.
    public private(set) var height: Int
    /// Bytes per packed row: `(width + 7) / 8`.
    public var bytesPerRow: Int { (width + 7) / 8 }
    /// Every row, packed, top row first. The bits past `width` in a row's last byte are always clear.
    public private(set) var packed: [UInt8]

    /// A blank (all paper) bitmap.
    public init(width: Int, height: Int = 0) {
        self.width = max(0, width)
        self.height = max(0, height)
        packed = [UInt8](repeating: 0, count: (self.width + 7) / 8 * self.height)
    }

    /// A bitmap drawn as text, one string per row: `#` (or `X`, `1`) is ink,
    /// anything else paper. Rows shorter than `width` are paper to the right.
    /// Meant for tests: the expected image is readable in the test itself.
    public init(width: Int, rows: [String]) {
        self.init(width: width, height: rows.count)
        for (y, row) in rows.enumerated() {
            for (x, character) in row.enumerated() where x < width && "#X1".contains(character) {
                self[x, y] = true
            }
        }
    }

    /// A bitmap from packed rows of `(width + 7) / 8` bytes each, as raster
    /// commands carry them; missing bytes are paper, extra ones are dropped.
    public init<Bytes: Collection<UInt8>>(width: Int, height: Int, packed data: Bytes) {
        self.init(width: width, height: height)
        for (index, byte) in data.prefix(packed.count).enumerated() { packed[index] = byte }
        for row in 0..<self.height { clearPadding(ofRow: row) }
    }

    /// Whether the dot at column `x`, row `y` is ink; false outside the bitmap.
    public subscript(x: Int, y: Int) -> Bool {
        get {
            guard x >= 0, x < width, y >= 0, y < height else { return false }
            return packed[y * bytesPerRow + x / 8] & (0x80 >> UInt8(x % 8)) != 0
        }
        set {
            guard x >= 0, x < width, y >= 0, y < height else { return }
            let mask: UInt8 = 0x80 >> UInt8(x % 8)
            if newValue { packed[y * bytesPerRow + x / 8] |= mask } else { packed[y * bytesPerRow + x / 8] &= ~mask }
        }
    }

    /// The rows as text, `#` for ink and `.` for paper: an assertion on them
    /// shows the difference as a picture.
    public var rowStrings: [String] {
        (0..<height).map { y in String((0..<width).map { self[$0, y] ? "#" : "." }) }
    }

    /// How many dots are ink.
    public var inkDots: Int { packed.reduce(0) { $0 + $1.nonzeroBitCount } }

    /// Adds `count` blank rows at the bottom (paper fed without printing).
    mutating func appendBlankRows(_ count: Int) {
        guard count > 0 else { return }
        packed += [UInt8](repeating: 0, count: bytesPerRow * count)
        height += count
    }

    /// Adds one row at the bottom from packed bytes (leftmost dot in the high
    /// bit), placed at column 0: dots past `width` are cut off, a short row
    /// is paper to the right.
    mutating func appendRow<Bytes: Collection<UInt8>>(_ row: Bytes) {
        appendBlankRows(1)
        let start = (height - 1) * bytesPerRow
        for (index, byte) in row.prefix(bytesPerRow).enumerated() { packed[start + index] = byte }
        clearPadding(ofRow: height - 1)
    }

    /// Sets the ink of `image` into this bitmap with its top-left dot at
    /// (`x`, `y`); what falls outside is cut off. Ink already there stays.
    mutating func draw(_ image: DotBitmap, atX x: Int, y: Int) {
        for row in 0..<image.height where y + row >= 0 && y + row < height {
            for column in 0..<image.width where image[column, row] { self[x + column, y + row] = true }
        }
    }

    /// Each dot repeated `x` times across and each row `y` times down, as a
    /// printer enlarges an image.
    func scaled(x: Int, y: Int) -> DotBitmap {
        guard x > 1 || y > 1 else { return self }
        var result = DotBitmap(width: width * x, height: height * y)
        for row in 0..<height {
            for column in 0..<width where self[column, row] {
                for dy in 0..<y {
                    for dx in 0..<x { result[column * x + dx, row * y + dy] = true }
                }
            }
        }
        return result
    }

    private mutating func clearPadding(ofRow y: Int) {
        let used = width % 8
        guard used != 0, bytesPerRow > 0 else { return }
        packed[y * bytesPerRow + bytesPerRow - 1] &= UInt8(truncatingIfNeeded: 0xFF << (8 - used))
    }
}
