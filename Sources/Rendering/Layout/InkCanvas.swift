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
    let cr: OpaquePointer

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

    func draw(_ operations: [DrawOperation]) {
        for operation in operations { operation.draw(with: cr) }
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
