public import Templates

/// How an image's greys become the dots a printer makes.
public enum ImageDither: Hashable, Sendable, CaseIterable {
    /// Error diffusion: the most faithful greys, for photos and shaded logos.
    case floydSteinberg
    /// Ink where the image is darker than mid-grey: crisp edges for
    /// black-and-white logos, greys lost.
    case threshold
    /// An 8 x 8 Bayer pattern: a regular, even texture that survives
    /// thermal dot spread better than diffusion's scattered dots.
    case ordered
    /// No dithering: every grey kept, for 8-bit raster and PDF output.
    case none

    /// The template's `dither` attribute.
    public init(_ dither: ImageBlock.Dither) {
        switch dither {
        case .floydSteinberg: self = .floydSteinberg
        case .threshold: self = .threshold
        case .ordered: self = .ordered
        }
    }
}

extension GrayImage {
    /// The image as ink, one byte per pixel, `width * height` bytes with no
    /// row padding: 0 = paper ... 255 = full ink, as `RenderedLayout.ink`
    /// (cairo A8 coverage). Every mode but `.none` gives only 0 or 255.
    ///
    /// Scale first (`scaled(toWidth:)`): dithering works at the printer's
    /// dots, and a dithered bitmap cannot be scaled without ruining it.
    ///
    /// Ink is `255 - luminance`, without linearising the sRGB values: a
    /// "50% grey" (128) becomes half the dots inked, as a 50% tint is
    /// printed anywhere in print. Dot gain on a thermal head darkens it a
    /// little, which only moves it towards the physically exact 78%.
    public func ink(dither: ImageDither) -> [UInt8] {
        let ink = luminance.map { 255 - $0 }
        guard width > 0, height > 0 else { return ink }
        switch dither {
        case .none:
            return ink
        case .floydSteinberg:
            let bits = PixelConversion.floydSteinberg(ink: ink, width: width, height: height)
            return Self.unpacked(bits, width: width, height: height)
        case .threshold:
            let bits = PixelConversion.threshold(ink: ink, width: width, height: height, level: 128)
            return Self.unpacked(bits, width: width, height: height)
        case .ordered:
            return Self.ordered(ink, width: width, height: height)
        }
    }

    // PixelConversion packs black_1 rows (MSB = leftmost dot); the ink
    // convention is a byte per dot.
    private static func unpacked(_ bits: [UInt8], width: Int, height: Int) -> [UInt8] {
        let bytesPerLine = (width + 7) / 8
        var out = [UInt8](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width where bits[y * bytesPerLine + x / 8] & (0x80 >> UInt8(x % 8)) != 0 {
                out[y * width + x] = 255
            }
        }
        return out
    }

    /// The classic recursive 8 x 8 Bayer index matrix, 0..<64.
    private static let bayer8: [Int] = {
        var matrix = [0]
        var size = 1
        while size < 8 {
            var next = [Int](repeating: 0, count: size * 2 * size * 2)
            for y in 0..<size {
                for x in 0..<size {
                    let v = 4 * matrix[y * size + x]
                    next[y * size * 2 + x] = v
                    next[y * size * 2 + x + size] = v + 2
                    next[(y + size) * size * 2 + x] = v + 3
                    next[(y + size) * size * 2 + x + size] = v + 1
                }
            }
            matrix = next
            size *= 2
        }
        return matrix
    }()

    // A dot is inked when its ink exceeds its cell's threshold; thresholds
    // sit at the middle of 64 equal steps (2, 6, ... 254), so ink n% inks
    // n% of the cells and 0 and 255 stay blank and solid.
    private static func ordered(_ ink: [UInt8], width: Int, height: Int) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width {
                let threshold = bayer8[(y % 8) * 8 + x % 8] * 4 + 2
                if Int(ink[y * width + x]) > threshold { out[y * width + x] = 255 }
            }
        }
        return out
    }
}
