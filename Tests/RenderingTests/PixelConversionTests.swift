import CPangoCairo
import PrintModel
import Testing
@testable import Rendering

@Suite struct PixelConversionTests {
    @Test func cairoA1RowsBecomeMSBFirst() {
        // Width 10, stride 4 (cairo pads rows to 32 bits). Leftmost dot in
        // the lowest bit; bits past x = 9 are garbage cairo may leave.
        let a1: [UInt8] = [
            0b0000_0101, 0b1111_1110, 0xAA, 0xAA,   // dots 0, 2, 9 (+ garbage)
            0xFF, 0b0000_0011, 0x00, 0x00,          // all ten dots
            0b1000_0000, 0x00, 0x00, 0x00,          // dot 7 only
        ]
        let packed = PixelConversion.msbFirst(cairoA1: a1, width: 10, height: 3, stride: 4)
        #expect(packed == [0b1010_0000, 0b0100_0000,
                           0xFF, 0b1100_0000,
                           0b0000_0001, 0x00])
    }

    @Test func reversedBits() {
        #expect(PixelConversion.reversedBits(0x01) == 0x80)
        #expect(PixelConversion.reversedBits(0b1100_1010) == 0b0101_0011)
        #expect((0...255).allSatisfy { PixelConversion.reversedBits(PixelConversion.reversedBits(UInt8($0))) == UInt8($0) })
    }

    @Test func realCairoA1Surface() throws {
        let surface = try #require(cairo_image_surface_create(CAIRO_FORMAT_A1, 21, 3))
        defer { cairo_surface_destroy(surface) }
        let cr = cairo_create(surface)
        cairo_rectangle(cr, 3, 1, 2, 1)     // dots x 3 and 4 on row 1
        cairo_rectangle(cr, 20, 2, 1, 1)    // the last dot of row 2
        cairo_fill(cr)
        cairo_destroy(cr)
        cairo_surface_flush(surface)
        let stride = Int(cairo_image_surface_get_stride(surface))
        let data = try #require(cairo_image_surface_get_data(surface))
        let bytes = Array(UnsafeBufferPointer(start: data, count: stride * 3))
        let page = RasterPage(cairoA1: bytes, width: 21, height: 3, stride: stride, resolution: Resolution(203))
        #expect(page.pixels == [0, 0, 0,
                                0b0001_1000, 0, 0,
                                0, 0, 0b0000_1000])
    }

    @Test func thresholdIsExact() {
        let ink: [UInt8] = [0, 127, 128, 255,
                            200, 10, 128, 127]
        #expect(PixelConversion.threshold(ink: ink, width: 4, height: 2) == [0b0011_0000, 0b1010_0000])
        #expect(PixelConversion.threshold(ink: ink, width: 4, height: 2, level: 200) == [0b0001_0000, 0b1000_0000])
        // A stride wider than the row: the extra bytes are ignored.
        let strided: [UInt8] = [255, 0, 9, 9, 0, 255, 9, 9]
        #expect(PixelConversion.threshold(ink: strided, width: 2, height: 2, stride: 4) == [0x80, 0x40])
    }

    @Test func sgray8IsInverseInk() {
        #expect(PixelConversion.sgray8(ink: [0, 1, 128, 255], width: 4, height: 1) == [255, 254, 127, 0])
    }

    @Test(arguments: [0, 32, 64, 128, 191, 255])
    func ditherKeepsMeanInk(level: Int) {
        let (w, h) = (64, 64)
        let ink = [UInt8](repeating: UInt8(level), count: w * h)
        let page = RasterPage(ink: ink, width: w, height: h, resolution: Resolution(203),
                              format: .black1, binarization: .floydSteinberg)
        let black = page.pixels.reduce(0) { $0 + $1.nonzeroBitCount }
        let fraction = Double(black) / Double(w * h)
        #expect(abs(fraction - Double(level) / 255) < 0.01, "level \(level): \(fraction)")
    }

    @Test func ditherOfAGradientKeepsEachColumnBandsMean() {
        let (w, h) = (64, 32)
        var ink = [UInt8](repeating: 0, count: w * h)
        for y in 0..<h { for x in 0..<w { ink[y * w + x] = UInt8(x * 4) } }
        let packed = PixelConversion.floydSteinberg(ink: ink, width: w, height: h)
        let page = RasterPage(width: w, height: h, resolution: Resolution(203), format: .black1, pixels: packed)!
        for band in stride(from: 0, to: w, by: 16) {
            var black = 0, wanted = 0.0
            for y in 0..<h { for x in band..<band + 16 {
                black += page.ink(x: x, y: y) == 255 ? 1 : 0
                wanted += Double(ink[y * w + x]) / 255
            } }
            #expect(abs(Double(black) - wanted) / Double(16 * h) < 0.03, "band at \(band)")
        }
    }

    @Test func blackOneRoundTripsThroughSgray() {
        let page = TestPages.receipt(height: 40)
        #expect(page.converted(to: .sgray8).converted(to: .black1) == page)
    }

    @Test func paddingBitsAreCleared() {
        let page = RasterPage(width: 3, height: 1, resolution: Resolution(203), format: .black1, pixels: [0xFF])!
        #expect(page.pixels == [0xE0])
        #expect(RasterPage(width: 3, height: 2, resolution: Resolution(203), format: .black1, pixels: [0xFF]) == nil)
    }
}

@Suite struct ThresholdEquivalenceTests {
    /// The eight-dots-at-once path agrees dot for dot with the plain rule
    /// (black from `level` up), at every width and stride, for any ink.
    @Test func fastPathMatchesThePlainRule() {
        var generator = SystemRandomNumberGenerator()
        for width in 1...41 {
            let height = 3, stride = width + Int.random(in: 0...5, using: &generator)
            let ink = (0..<(stride * height)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            for level: UInt8 in [128, 100] {
                let packed = PixelConversion.threshold(ink: ink, width: width, height: height, stride: stride, level: level)
                let perLine = (width + 7) / 8
                for y in 0..<height {
                    for x in 0..<width {
                        let black = packed[y * perLine + x / 8] & (0x80 >> UInt8(x % 8)) != 0
                        #expect(black == (ink[y * stride + x] >= level), "width \(width) x \(x) y \(y) level \(level)")
                    }
                }
            }
        }
    }
}
