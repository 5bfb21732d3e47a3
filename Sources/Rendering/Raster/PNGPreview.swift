import CPangoCairo

/// A PNG of a page for people: black ink on white paper, one PNG pixel per
/// printer dot.
///
/// cairo's PNG writer stores an A8 or A1 surface's ink as white on black,
/// so the ink goes into an A8 mask that paints black onto a white RGB24
/// surface, and that surface is what gets written.
public enum PNGPreview {
    /// Writes the preview to `path` (created or replaced).
    public static func write(_ page: RasterPage, toFile path: String) throws {
        let surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32(page.width), Int32(page.height))
        defer { cairo_surface_destroy(surface) }
        let mask = try inkMask(page)
        defer { cairo_surface_destroy(mask) }

        let cr = cairo_create(surface)
        defer { cairo_destroy(cr) }
        cairo_set_source_rgb(cr, 1, 1, 1)
        cairo_paint(cr)
        cairo_set_source_rgb(cr, 0, 0, 0)
        cairo_mask_surface(cr, mask, 0, 0)
        cairo_surface_flush(surface)

        let status = cairo_surface_write_to_png(surface, path)
        guard status == CAIRO_STATUS_SUCCESS else {
            throw RasterError.cannotOpen(path: path, reason: String(cString: cairo_status_to_string(status)))
        }
    }

    // An A8 surface whose alpha is the page's ink (255 = full ink).
    private static func inkMask(_ page: RasterPage) throws -> OpaquePointer {
        guard let mask = cairo_image_surface_create(CAIRO_FORMAT_A8, Int32(page.width), Int32(page.height)),
              cairo_surface_status(mask) == CAIRO_STATUS_SUCCESS,
              let data = cairo_image_surface_get_data(mask) else {
            throw RasterError.unsupported("cannot make a \(page.width)x\(page.height) preview surface")
        }
        let stride = Int(cairo_image_surface_get_stride(mask))
        let ink = page.inkBuffer()
        for y in 0..<page.height {
            for x in 0..<page.width { data[y * stride + x] = ink[y * page.width + x] }
        }
        cairo_surface_mark_dirty(mask)   // we wrote behind cairo's back
        return mask
    }
}
