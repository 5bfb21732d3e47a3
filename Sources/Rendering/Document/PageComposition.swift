import CPangoCairo
import PrintModel
import Templates

/// One page as it will be drawn: slices of measured layouts placed on it.
/// The raster and the PDF draw the same composition, so they cannot differ.
struct ComposedPage {
    /// One slice: `rows` of a layout's content, drawn with their top at `y`.
    struct Placement {
        var operations: [DrawOperation]
        var rows: Range<Int>
        var y: Int
    }

    /// The media length of this page: the cut length on a roll.
    var length: Length
    /// Raster rows of the media page.
    var heightInDots: Int
    /// Rows of body content this page carries.
    var contentRows: Int
    var placements: [Placement]

    /// Draws the page with `cr`, whose user unit is one media dot. `setup`
    /// says where the printable columns are and whether the content is turned.
    func draw(with cr: OpaquePointer, setup: PageSetup) {
        cairo_save(cr)
        defer { cairo_restore(cr) }
        if setup.landscape {
            // Content (x, y) -> media (y, H - x): the content's top runs along
            // the media's left edge (PWG landscape, 90 degrees counter-clockwise).
            var turn = cairo_matrix_t()
            cairo_matrix_init(&turn, 0, -1, 1, 0, 0, Double(heightInDots))
            cairo_transform(cr, &turn)
        }
        let content = setup.content
        let left = Double(content.printableLeftDots), width = Double(content.printableWidthDots)
        for placement in placements where !placement.rows.isEmpty {
            cairo_save(cr)
            // Only this slice shows, and never outside the printable columns.
            cairo_rectangle(cr, left, Double(placement.y), width, Double(placement.rows.count))
            cairo_clip(cr)
            cairo_translate(cr, 0, Double(placement.y - placement.rows.lowerBound))
            for operation in placement.operations { operation.draw(with: cr) }
            cairo_restore(cr)
        }
    }
}

/// A template cut into pages for one printer, not drawn yet.
struct Composition {
    var setup: PageSetup
    var pages: [ComposedPage]
    var problems: [RenderProblem]

    /// Page `index`, handed out once: the composition keeps no reference to
    /// it, so its text is freed as soon as the page has been drawn.
    mutating func take(_ index: Int) -> ComposedPage {
        let page = pages[index]
        pages[index].placements = []
        return page
    }
}
