import CPangoCairo

/// The page being drawn: a cairo A8 surface whose alpha is the ink
/// (255 = full ink), and the cairo context drawing on it.
///
/// Everything drawn is clipped to the printable columns, so no ink ever
/// lands in the hardware margins, whatever a block asks for.
final class InkCanvas {
    let width: Int
    let height: Int
    private let surface: OpaquePointer
    private let cr: OpaquePointer

    /// A blank canvas; `printable` is the range of columns ink may touch.
    init(width: Int, height: Int, printable: Range<Int>) {
        self.width = width
        self.height = height
        surface = cairo_image_surface_create(CAIRO_FORMAT_A8, Int32(width), Int32(height))
        cr = cairo_create(surface)
        cairo_rectangle(cr, Double(printable.lowerBound), 0, Double(printable.count), Double(height))
        cairo_clip(cr)
    }

    deinit {
        cairo_destroy(cr)
        cairo_surface_destroy(surface)
    }

    /// Fills a rectangle with full ink.
    func fill(x: Int, y: Int, width: Int, height: Int) {
        guard width > 0, height > 0 else { return }
        cairo_set_operator(cr, CAIRO_OPERATOR_OVER)
        cairo_set_source_rgba(cr, 0, 0, 0, 1)
        cairo_rectangle(cr, Double(x), Double(y), Double(width), Double(height))
        cairo_fill(cr)
    }

    /// Draws text as ink, or (`clear`) erases ink in the letters' shape:
    /// inverse text is a filled block with the letters cleared out of it.
    func draw(_ text: PangoTextLayout, x: Int, y: Int, clear: Bool = false) {
        cairo_set_operator(cr, clear ? CAIRO_OPERATOR_CLEAR : CAIRO_OPERATOR_OVER)
        cairo_set_source_rgba(cr, 0, 0, 0, 1)
        text.draw(on: cr, x: x, y: y)
        cairo_set_operator(cr, CAIRO_OPERATOR_OVER)
    }

    /// The ink, `width` bytes a row with cairo's stride padding dropped.
    func inkBuffer() -> [UInt8] {
        cairo_surface_flush(surface)
        guard width > 0, height > 0, let data = cairo_image_surface_get_data(surface) else { return [] }
        let stride = Int(cairo_image_surface_get_stride(surface))
        var out = [UInt8](repeating: 0, count: width * height)
        out.withUnsafeMutableBufferPointer { buffer in
            for y in 0..<height {
                for x in 0..<width { buffer[y * width + x] = data[y * stride + x] }
            }
        }
        return out
    }
}
