public import PrintModel

/// Pure conversions from what cairo draws to what PWG raster carries.
///
/// Inputs are "ink" buffers as a cairo A8 surface holds them: one byte per
/// dot, 0 = no ink, 255 = full ink, rows `stride` bytes apart (cairo pads
/// rows to a multiple of 4). Outputs are packed rows with no padding beyond
/// the last byte, as `RasterPage` stores them.
public enum PixelConversion {
    /// Ink to PWG `sgray_8` (0 = black, 255 = white): `255 - ink`.
    public static func sgray8(ink: [UInt8], width: Int, height: Int, stride: Int? = nil) -> [UInt8] {
        let stride = stride ?? width
        precondition(stride >= width && ink.count >= (height - 1) * stride + width, "ink buffer too small")
        // Unchecked pointers: this runs over every dot of every page.
        return [UInt8](unsafeUninitializedCapacity: width * height) { out, count in
            ink.withUnsafeBufferPointer { source in
                for y in 0..<height {
                    let row = y * stride, target = y * width
                    for x in 0..<width { out[target + x] = 255 &- source[row + x] }
                }
            }
            count = width * height
        }
    }

    /// Ink to PWG `black_1` by a fixed threshold: a dot is black when its
    /// ink is at least `level`. Right for text and barcodes, whose edges
    /// must stay sharp; use `floydSteinberg` for photographs and logos.
    public static func threshold(ink: [UInt8], width: Int, height: Int, stride: Int? = nil,
                                 level: UInt8 = 128) -> [UInt8] {
        let stride = stride ?? width
        precondition(stride >= width && ink.count >= (height - 1) * stride + width, "ink buffer too small")
        let bytesPerLine = (width + 7) / 8
        var out = [UInt8](repeating: 0, count: bytesPerLine * height)
        // Eight dots make one byte, built in a register: this runs over every
        // dot of every page, so no per-dot array access or bounds check.
        out.withUnsafeMutableBufferPointer { packed in
            ink.withUnsafeBytes { source in
                for y in 0..<height {
                    let row = y * stride, target = y * bytesPerLine
                    var x = 0
                    // Half ink, the usual level, is a byte's top bit: eight dots at
                    // once, gathered by one multiplication (paper, most of a
                    // receipt, costs a compare).
                    if level == 128 {
                        while x + 8 <= width {
                            let eight = UInt64(bigEndian: source.loadUnaligned(fromByteOffset: row + x, as: UInt64.self))
                            let tops = eight & 0x8080_8080_8080_8080
                            packed[target + x / 8] = tops == 0 ? 0 : UInt8(truncatingIfNeeded: (tops &* 0x0002_0408_1020_4081) >> 56)
                            x += 8
                        }
                    }
                    while x < width {
                        var byte: UInt8 = 0
                        let end = min(x + 8, width)
                        var bit: UInt8 = 0x80
                        for dot in x..<end {
                            if source[row + dot] >= level { byte |= bit }
                            bit >>= 1
                        }
                        packed[target + x / 8] = byte
                        x = end
                    }
                }
            }
        }
        return out
    }

    /// A cairo A1 surface's rows to PWG `black_1` rows.
    ///
    /// cairo A1 keeps the leftmost dot in the lowest bit of each byte (on
    /// this little-endian platform) and 1 = ink; PWG wants the leftmost dot
    /// in the highest bit. Each byte is bit-reversed; bits past `width` are
    /// cleared because cairo leaves them undefined.
    public static func msbFirst(cairoA1 data: [UInt8], width: Int, height: Int, stride: Int) -> [UInt8] {
        let bytesPerLine = (width + 7) / 8
        precondition(stride >= bytesPerLine && data.count >= (height - 1) * stride + bytesPerLine,
                     "A1 buffer too small")
        let spare = bytesPerLine * 8 - width
        let lastMask: UInt8 = 0xFF << UInt8(spare)
        var out = [UInt8](repeating: 0, count: bytesPerLine * height)
        for y in 0..<height {
            for i in 0..<bytesPerLine {
                out[y * bytesPerLine + i] = reversedBits(data[y * stride + i])
            }
            out[y * bytesPerLine + bytesPerLine - 1] &= lastMask
        }
        return out
    }

    /// The bits of one byte in the opposite order (bit 0 becomes bit 7).
    public static func reversedBits(_ byte: UInt8) -> UInt8 {
        var b = byte
        b = (b & 0xF0) >> 4 | (b & 0x0F) << 4
        b = (b & 0xCC) >> 2 | (b & 0x33) << 2
        b = (b & 0xAA) >> 1 | (b & 0x55) << 1
        return b
    }
}

extension RasterPage {
    /// How ink levels between none and full become black or white dots.
    public enum Binarization: Hashable, Sendable {
        /// Black from `level` up: text, lines, barcodes.
        case threshold(level: UInt8)
        /// Floyd–Steinberg error diffusion: images.
        case floydSteinberg
    }

    /// A page from a cairo A8-style ink buffer (255 = full ink).
    /// `.sgray8` keeps every level; `.black1` binarizes as `binarization` says.
    public init(ink: [UInt8], width: Int, height: Int, stride: Int? = nil, resolution: Resolution,
                format: PixelFormat, binarization: Binarization = .threshold(level: 128)) {
        let packed: [UInt8]
        switch (format, binarization) {
        case (.sgray8, _):
            packed = PixelConversion.sgray8(ink: ink, width: width, height: height, stride: stride)
        case (.black1, .threshold(let level)):
            packed = PixelConversion.threshold(ink: ink, width: width, height: height, stride: stride, level: level)
        case (.black1, .floydSteinberg):
            packed = PixelConversion.floydSteinberg(ink: ink, width: width, height: height, stride: stride)
        }
        self.init(width: width, height: height, resolution: resolution, format: format, pixels: packed)!
    }

    /// A `.black1` page from a cairo A1 surface's bytes (LSB-first rows).
    public init(cairoA1 data: [UInt8], width: Int, height: Int, stride: Int, resolution: Resolution) {
        let packed = PixelConversion.msbFirst(cairoA1: data, width: width, height: height, stride: stride)
        self.init(width: width, height: height, resolution: resolution, format: .black1, pixels: packed)!
    }
}
