import CPangoCairo

/// Ink at the page's dots: 0 = paper, 255 = full ink, row by row.
struct InkBitmap: Sendable {
    let width: Int
    let height: Int
    let ink: [UInt8]

    /// Inks the bitmap with its top left at (`x`, `y`), in `cr`'s user space
    /// (one unit a dot), as black through the bitmap as a mask.
    func draw(with cr: OpaquePointer, x: Int, y: Int) {
        guard width > 0, height > 0 else { return }
        if !inkInPlace(on: cr, x: x, y: y) { drawThroughCairo(with: cr, x: x, y: y) }
    }

    /// The way to any surface: a PDF page, a turned or scaled one.
    func drawThroughCairo(with cr: OpaquePointer, x: Int, y: Int) {
        let stride = Int(cairo_format_stride_for_width(CAIRO_FORMAT_A8, Int32(width)))
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_A8, Int32(width), Int32(height)),
              cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS,
              let data = cairo_image_surface_get_data(surface) else { return }
        defer { cairo_surface_destroy(surface) }
        ink.withUnsafeBufferPointer { source in
            for row in 0..<height {
                for column in 0..<width { data[row * stride + column] = source[row * width + column] }
            }
        }
        cairo_surface_mark_dirty(surface)
        let pattern = cairo_pattern_create_for_surface(surface)
        defer { cairo_pattern_destroy(pattern) }
        // Nearest: a PDF viewer or a scaled preview must not blur the modules.
        cairo_pattern_set_filter(pattern, CAIRO_FILTER_NEAREST)
        var matrix = cairo_matrix_t()
        cairo_matrix_init_translate(&matrix, -Double(x), -Double(y))
        cairo_pattern_set_matrix(pattern, &matrix)
        cairo_set_operator(cr, CAIRO_OPERATOR_OVER)
        cairo_set_source_rgba(cr, 0, 0, 0, 1)
        cairo_mask(cr, pattern)
    }

    /// On the raster's own ink surface (an A8 image, moved by whole dots,
    /// clipped to rectangles) the dots are inked in place, as cairo would:
    /// black OVER the surface through the bitmap, with pixman's rounding.
    /// Cairo's mask of an A8 image onto an A8 surface has no fast path in
    /// pixman: every dot was widened to 32 bits and back, a twentieth of the
    /// agent's CPU for a receipt with a logo and a QR code. False, having
    /// drawn nothing, on any other surface.
    func inkInPlace(on cr: OpaquePointer, x: Int, y: Int) -> Bool {
        guard let target = Self.rasterInk(of: cr), let data = cairo_image_surface_get_data(target) else { return false }
        var matrix = cairo_matrix_t()
        cairo_get_matrix(cr, &matrix)
        var offsetX = 0.0, offsetY = 0.0
        cairo_surface_get_device_offset(target, &offsetX, &offsetY)
        let shiftX = matrix.x0 + offsetX, shiftY = matrix.y0 + offsetY
        guard matrix.xx == 1, matrix.yy == 1, matrix.xy == 0, matrix.yx == 0,
              shiftX == shiftX.rounded(), shiftY == shiftY.rounded(),
              abs(shiftX) < 1e9, abs(shiftY) < 1e9,
              let clip = cairo_copy_clip_rectangle_list(cr) else { return false }
        defer { cairo_rectangle_list_destroy(clip) }
        guard clip.pointee.status == CAIRO_STATUS_SUCCESS else { return false }
        let rectangles = UnsafeBufferPointer(start: clip.pointee.rectangles, count: Int(clip.pointee.num_rectangles))
        // Whole dots only: a clip edge inside a dot would ink it in part.
        guard rectangles.allSatisfy({ [$0.x, $0.y, $0.width, $0.height].allSatisfy { $0 == $0.rounded() } })
        else { return false }

        let surfaceWidth = Int(cairo_image_surface_get_width(target))
        let surfaceHeight = Int(cairo_image_surface_get_height(target))
        let stride = Int(cairo_image_surface_get_stride(target))
        let left = x + Int(shiftX), top = y + Int(shiftY)
        cairo_surface_flush(target)
        ink.withUnsafeBufferPointer { source in
            for rectangle in rectangles {
                // The clip and the bitmap, in the surface's dots.
                let firstColumn = max(left, Int(rectangle.x) + Int(shiftX), 0)
                let endColumn = min(left + width, Int(rectangle.x + rectangle.width) + Int(shiftX), surfaceWidth)
                let firstRow = max(top, Int(rectangle.y) + Int(shiftY), 0)
                let endRow = min(top + height, Int(rectangle.y + rectangle.height) + Int(shiftY), surfaceHeight)
                guard firstColumn < endColumn, firstRow < endRow else { continue }
                let columns = firstColumn..<endColumn, rows = firstRow..<endRow
                for row in rows {
                    let from = (row - top) * width - left, to = row * stride
                    for column in columns {
                        let mask = source[from + column]
                        if mask == 0 { continue }
                        data[to + column] = mask == 255 ? 255 : Self.over(mask, data[to + column])
                    }
                }
                cairo_surface_mark_dirty_rectangle(target, Int32(columns.lowerBound), Int32(rows.lowerBound),
                                                   Int32(columns.count), Int32(rows.count))
            }
        }
        return true
    }

    /// The surface `cr` draws on now (a group's, if one was pushed) when it is
    /// the raster's ink, an A8 image surface; nil on any other (a PDF page).
    static func rasterInk(of cr: OpaquePointer) -> OpaquePointer? {
        let target = cairo_get_group_target(cr)
        guard let target, cairo_surface_get_type(target) == CAIRO_SURFACE_TYPE_IMAGE,
              cairo_image_surface_get_format(target) == CAIRO_FORMAT_A8 else { return nil }
        return target
    }

    /// Opaque black OVER `destination` through `mask`, in 8 bits as pixman
    /// computes it: mask + destination x (255 - mask) / 255, rounded its way.
    static func over(_ mask: UInt8, _ destination: UInt8) -> UInt8 {
        let product = UInt32(destination) * UInt32(255 - mask) + 0x80
        return UInt8(min(255, UInt32(mask) + ((product >> 8) + product) >> 8))
    }
}
