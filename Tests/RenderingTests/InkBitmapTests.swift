import CPangoCairo
@testable import Rendering
import Testing

/// Bitmaps (barcodes, images) are inked straight into the raster's A8
/// surface instead of through cairo's mask, which pixman composites a dot
/// at a time in 32 bits. The dots must come out as cairo's would.
@Suite struct InkBitmapTests {
    /// Every mask level over every ink level, in a 256 x 256 bitmap.
    static let everyLevel = InkBitmap(width: 256, height: 256, ink: (0..<(256 * 256)).map { UInt8($0 % 256) })

    /// An A8 surface already inked with `background`, drawn on by `draw`
    /// under a clip of `clip` after moving by `shift`; its bytes.
    static func surface(width: Int, height: Int, background: (Int, Int) -> UInt8,
                        clip: (x: Double, y: Double, width: Double, height: Double), shift: (Double, Double),
                        draw: (OpaquePointer) -> Void) -> [UInt8] {
        let surface = cairo_image_surface_create(CAIRO_FORMAT_A8, Int32(width), Int32(height))!
        defer { cairo_surface_destroy(surface) }
        let stride = Int(cairo_image_surface_get_stride(surface))
        let data = cairo_image_surface_get_data(surface)!
        for row in 0..<height { for column in 0..<width { data[row * stride + column] = background(row, column) } }
        cairo_surface_mark_dirty(surface)
        let cr = cairo_create(surface)!
        cairo_rectangle(cr, clip.x, clip.y, clip.width, clip.height)
        cairo_clip(cr)
        cairo_translate(cr, shift.0, shift.1)
        draw(cr)
        cairo_destroy(cr)
        cairo_surface_flush(surface)
        return (0..<height).flatMap { row in (0..<width).map { data[row * stride + $0] } }
    }

    @Test func inkedInPlaceAsCairoInksItOverEveryLevelClippedAndMoved() {
        let bitmap = Self.everyLevel
        // Each row of the surface a different ink level under the bitmap's 256 mask levels.
        let background = { (row: Int, column: Int) in UInt8((row * 7 + column / 300) % 256) }
        for (clip, shift) in [((0.0, 0.0, 400.0, 300.0), (0.0, 0.0)), ((10.0, 5.0, 200.0, 150.0), (30.0, -20.0)),
                              ((0.0, 0.0, 400.0, 300.0), (250.0, 100.0))] {
            var inPlace = false
            let ours = Self.surface(width: 400, height: 300, background: background, clip: clip, shift: shift) { cr in
                inPlace = bitmap.inkInPlace(on: cr, x: 7, y: 3)
            }
            let cairos = Self.surface(width: 400, height: 300, background: background, clip: clip, shift: shift) { cr in
                bitmap.drawThroughCairo(with: cr, x: 7, y: 3)
            }
            #expect(inPlace)
            #expect(ours == cairos, "clip \(clip), moved by \(shift): \(zip(ours, cairos).filter { $0 != $1 }.count) dots differ")
        }
    }

    /// A scaled or turned drawing, or a clip through the middle of a dot,
    /// is left to cairo.
    @Test func anythingButWholeDotsIsLeftToCairo() {
        let bitmap = InkBitmap(width: 4, height: 4, ink: [UInt8](repeating: 255, count: 16))
        for (clip, shift, scale) in [((0.0, 0.0, 40.0, 40.0), (0.5, 0.0), 1.0), ((0.0, 0.0, 40.0, 40.0), (0.0, 0.0), 2.0),
                                     ((0.5, 0.0, 30.0, 30.0), (0.0, 0.0), 1.0)] {
            var inPlace = true
            _ = Self.surface(width: 40, height: 40, background: { _, _ in 0 }, clip: clip, shift: shift) { cr in
                cairo_scale(cr, scale, scale)
                inPlace = bitmap.inkInPlace(on: cr, x: 1, y: 1)
            }
            #expect(!inPlace, "clip \(clip), moved by \(shift), scaled \(scale)")
        }
    }
}
