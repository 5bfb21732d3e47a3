public import PrintModel

/// One page bitmap at one printer resolution, in the pixel layout a PWG
/// raster page carries, so the writer can hand its rows to libcups unchanged.
///
/// Two layouts (PWG 5102.4 names):
/// - `.black1`: 1 bit per dot, **1 = ink (black)**, 0 = paper; the most
///   significant bit of each byte is the leftmost dot. Rows are padded to a
///   whole byte and the padding bits are 0 (no ink).
/// - `.sgray8`: 1 byte per dot, sGray luminance: **0 = black, 255 = white**
///   (the opposite of cairo's A8 coverage, where 255 = full ink).
///
/// Rows are stored top to bottom, `bytesPerLine` bytes each, with no extra
/// stride: that is the size libcups expects for `cupsBytesPerLine`.
public struct RasterPage: Hashable, Sendable {
    /// The pixel layout of a page, named after PWG's `pwg-raster-document-type`.
    public enum PixelFormat: String, Hashable, Sendable, CaseIterable {
        /// `black_1`: 1 bit per dot, 1 = black, MSB = leftmost.
        case black1 = "black_1"
        /// `sgray_8`: 8 bits per dot, 0 = black, 255 = white.
        case sgray8 = "sgray_8"

        public var bitsPerPixel: Int { self == .black1 ? 1 : 8 }
    }

    public let width: Int
    public let height: Int
    public let resolution: Resolution
    public let format: PixelFormat
    /// `height` rows of `bytesPerLine` bytes each.
    public private(set) var pixels: [UInt8]

    public var bytesPerLine: Int { Self.bytesPerLine(width: width, format: format) }

    public static func bytesPerLine(width: Int, format: PixelFormat) -> Int {
        (width * format.bitsPerPixel + 7) / 8
    }

    /// A page from already packed rows; nil when the byte count does not
    /// match `height * bytesPerLine` or a dimension is not positive.
    public init?(width: Int, height: Int, resolution: Resolution, format: PixelFormat, pixels: [UInt8]) {
        guard width > 0, height > 0, resolution.horizontal > 0, resolution.vertical > 0,
              pixels.count == height * Self.bytesPerLine(width: width, format: format) else { return nil }
        self.width = width; self.height = height
        self.resolution = resolution; self.format = format
        self.pixels = pixels
        if format == .black1 { clearPaddingBits() }
    }

    /// A page with no ink anywhere.
    public init(blankWidth width: Int, height: Int, resolution: Resolution, format: PixelFormat) {
        precondition(width > 0 && height > 0, "a page has at least one dot")
        self.width = width; self.height = height
        self.resolution = resolution; self.format = format
        let paper: UInt8 = format == .black1 ? 0x00 : 0xFF
        pixels = [UInt8](repeating: paper, count: height * Self.bytesPerLine(width: width, format: format))
    }

    /// Ink at one dot, 0 (paper) to 255 (full ink), whatever the layout.
    public func ink(x: Int, y: Int) -> UInt8 {
        precondition(x >= 0 && x < width && y >= 0 && y < height, "dot outside the page")
        switch format {
        case .black1:
            let byte = pixels[y * bytesPerLine + x / 8]
            return byte & (0x80 >> UInt8(x % 8)) != 0 ? 255 : 0
        case .sgray8:
            return 255 - pixels[y * bytesPerLine + x]
        }
    }

    /// Sets the ink at one dot; on a `.black1` page any ink of 128 or more is black.
    public mutating func setInk(_ ink: UInt8, x: Int, y: Int) {
        precondition(x >= 0 && x < width && y >= 0 && y < height, "dot outside the page")
        switch format {
        case .black1:
            let index = y * bytesPerLine + x / 8
            let mask: UInt8 = 0x80 >> UInt8(x % 8)
            if ink >= 128 { pixels[index] |= mask } else { pixels[index] &= ~mask }
        case .sgray8:
            pixels[y * bytesPerLine + x] = 255 - ink
        }
    }

    /// The whole page as one ink byte per dot (255 = full ink), row by row,
    /// `width` bytes per row: the layout a cairo A8 mask wants.
    public func inkBuffer() -> [UInt8] {
        var out = [UInt8](repeating: 0, count: width * height)
        let stride = bytesPerLine
        for y in 0..<height {
            switch format {
            case .black1:
                for x in 0..<width where pixels[y * stride + x / 8] & (0x80 >> UInt8(x % 8)) != 0 {
                    out[y * width + x] = 255
                }
            case .sgray8:
                for x in 0..<width { out[y * width + x] = 255 - pixels[y * stride + x] }
            }
        }
        return out
    }

    /// The same page in the other layout: `.sgray8` to `.black1` by the
    /// threshold of `PixelConversion.threshold`, `.black1` to `.sgray8` exactly.
    public func converted(to target: PixelFormat) -> RasterPage {
        if target == format { return self }
        let ink = inkBuffer()
        let packed: [UInt8] = target == .black1
            ? PixelConversion.threshold(ink: ink, width: width, height: height)
            : PixelConversion.sgray8(ink: ink, width: width, height: height)
        return RasterPage(width: width, height: height, resolution: resolution, format: target, pixels: packed)!
    }

    // Bits past `width` in the last byte of a black_1 row would print as
    // ink on a printer that does not mask them; keep them 0.
    private mutating func clearPaddingBits() {
        let spare = bytesPerLine * 8 - width
        guard spare > 0 else { return }
        let keep: UInt8 = 0xFF << UInt8(spare)
        for y in 0..<height { pixels[y * bytesPerLine + bytesPerLine - 1] &= keep }
    }
}
