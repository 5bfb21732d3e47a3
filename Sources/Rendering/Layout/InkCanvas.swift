import CPangoCairo

/// The page being drawn: a cairo A8 surface whose alpha is the ink
/// (255 = full ink), drawn straight into the Swift array that is returned,
/// so a page is never copied out of cairo (a 30-item receipt is 1.6 MB of
/// ink, and copying it cost as much as drawing its text).
///
/// Everything drawn is clipped to the printable columns, so no ink ever
/// lands in the hardware margins, whatever a block asks for.
enum InkCanvas {
    /// Ink `width * height` bytes, row by row with no padding, as `draw`
    /// left it; `draw` gets a cairo context whose unit is one dot.
    static func ink(width: Int, height: Int, printable: Range<Int>, draw: (OpaquePointer) -> Void) -> [UInt8] {
        guard width > 0, height > 0 else { return [] }
        let stride = Int(cairo_format_stride_for_width(CAIRO_FORMAT_A8, Int32(width)))
        var ink = [UInt8](repeating: 0, count: stride * height)
        ink.withUnsafeMutableBufferPointer { buffer in
            let surface = cairo_image_surface_create_for_data(buffer.baseAddress, CAIRO_FORMAT_A8, Int32(width),
                                                              Int32(height), Int32(stride))
            let cr = cairo_create(surface)!
            cairo_rectangle(cr, Double(printable.lowerBound), 0, Double(printable.count), Double(height))
            cairo_clip(cr)
            draw(cr)
            cairo_destroy(cr)
            cairo_surface_flush(surface)
            cairo_surface_destroy(surface)
            // cairo pads rows to 4 bytes; close the gaps in place, top down.
            if stride != width, let base = buffer.baseAddress {
                for y in 1..<height { (base + y * width).update(from: base + y * stride, count: width) }
            }
        }
        if stride != width { ink.removeLast((stride - width) * height) }
        return ink
    }
}
