import CPangoCairo

/// One drawing step, positioned in page dots. The same steps are drawn onto
/// the raster's ink surface and onto a PDF page, so both show one layout.
enum DrawOperation {
    case fill(x: Int, y: Int, width: Int, height: Int)
    /// Text; `clear` cuts the letters out of ink filled before (inverse).
    case text(PangoTextLayout, x: Int, y: Int, clear: Bool)
    /// A bitmap already at the page's dots (barcodes, images): drawn dot for
    /// dot, never smoothed, so a barcode module stays a whole number of dots.
    case bitmap(InkBitmap, x: Int, y: Int)

    /// The same step `dy` dots lower (a box's contents, a page's slice).
    func moved(dx: Int = 0, dy: Int) -> DrawOperation {
        switch self {
        case .fill(let x, let y, let width, let height): .fill(x: x + dx, y: y + dy, width: width, height: height)
        case .text(let layout, let x, let y, let clear): .text(layout, x: x + dx, y: y + dy, clear: clear)
        case .bitmap(let bitmap, let x, let y): .bitmap(bitmap, x: x + dx, y: y + dy)
        }
    }

    /// The rows the step can ink, from its top: a page slice draws only the
    /// steps that reach into its rows.
    var rows: Range<Int> {
        switch self {
        case .fill(_, let y, _, let height): y..<(y + max(0, height))
        case .text(let layout, _, let y, _): y..<(y + layout.size.height)
        case .bitmap(let bitmap, _, let y): y..<(y + bitmap.height)
        }
    }

    /// Draws with `cr`, whose user unit is one dot.
    func draw(with cr: OpaquePointer) {
        switch self {
        case .fill(let x, let y, let width, let height):
            guard width > 0, height > 0 else { return }
            cairo_set_operator(cr, CAIRO_OPERATOR_OVER)
            cairo_set_source_rgba(cr, 0, 0, 0, 1)
            cairo_rectangle(cr, Double(x), Double(y), Double(width), Double(height))
            cairo_fill(cr)
        case .text(let layout, let x, let y, let clear):
            cairo_set_operator(cr, clear ? CAIRO_OPERATOR_CLEAR : Self.textOperator(on: cr))
            cairo_set_source_rgba(cr, 0, 0, 0, 1)
            layout.draw(on: cr, x: x, y: y)
            cairo_set_operator(cr, CAIRO_OPERATOR_OVER)
        case .bitmap(let bitmap, let x, let y):
            bitmap.draw(with: cr, x: x, y: y)
        }
    }

    /// How text is inked: OVER, except on an A8 image surface (the raster's
    /// ink), where it is added. Onto paper the two give the same dots, and
    /// Pango's runs land on paper (their glyphs are already added together
    /// in the run's mask), but pixman has a fast path only for adding a
    /// solid colour through an A8 mask onto A8, and OVER took its general
    /// path: each dot widened to 32 bits and back, some 4% of the agent's
    /// CPU per receipt. Where text does cross other ink, the sum is at
    /// least as dark as OVER's blend.
    static func textOperator(on cr: OpaquePointer) -> cairo_operator_t {
        InkBitmap.rasterInk(of: cr) == nil ? CAIRO_OPERATOR_OVER : CAIRO_OPERATOR_ADD
    }
}
