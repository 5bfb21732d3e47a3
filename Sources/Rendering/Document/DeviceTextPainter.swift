import Foundation
import CPangoCairo
import PrintModel

/// Draws printer-font lines onto a preview as the printer prints them: each
/// character in its own fixed cell, in a monospaced face (DejaVu Sans Mono,
/// which fonts-dejavu-core installs beside DejaVu Sans), magnified as
/// `GS !` magnifies. A preview of a `native` role then shows the printer's
/// narrower, fixed-pitch letters at their printed places, not the drawn
/// ones the paper will not carry.
enum DeviceTextPainter {
    static let face = "DejaVu Sans Mono"
    /// The face's advance is 0.602 em: an em of cell width / 0.602 fills a cell.
    private static let advancePerEm = 0.602

    /// Paints `lines` (page rows and media columns) with `cr`, one unit a dot.
    static func paint(_ lines: [DeviceTextLine], font: DeviceFont, with cr: OpaquePointer) {
        guard !lines.isEmpty else { return }
        let layout = pango_cairo_create_layout(cr)!
        defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
        cairo_save(cr)
        defer { cairo_restore(cr) }
        cairo_set_operator(cr, CAIRO_OPERATOR_OVER)
        cairo_set_source_rgba(cr, 0, 0, 0, 1)
        for line in lines {
            for run in line.runs {
                let description = pango_font_description_from_string(face)
                let em = Double(font.cellWidth) / advancePerEm
                pango_font_description_set_absolute_size(description, em * Double(kp_pango_scale()))
                pango_font_description_set_weight(description, run.bold ? PANGO_WEIGHT_BOLD : PANGO_WEIGHT_NORMAL)
                pango_layout_set_font_description(layout, description)
                pango_font_description_free(description)
                let cellTop = Double(line.top + line.cellTop)
                for (index, character) in run.text.precomposedStringWithCanonicalMapping.unicodeScalars.enumerated() {
                    String(character).withCString { pango_layout_set_text(layout, $0, -1) }
                    let baseline = Double(pango_layout_get_baseline(layout)) / Double(kp_pango_scale())
                    cairo_save(cr)
                    cairo_translate(cr, Double(run.x + index * font.cellWidth * run.widthScale), cellTop)
                    cairo_scale(cr, Double(run.widthScale), Double(run.heightScale))
                    cairo_move_to(cr, 0, Double(font.baseline) - baseline)
                    pango_cairo_show_layout(cr, layout)
                    cairo_restore(cr)
                }
            }
        }
    }
}
