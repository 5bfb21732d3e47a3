import CPangoCairo

/// The distinct fonts one Pango font map has been asked for, attached to the
/// map itself, so that the map can be retired before it grows without end.
///
/// Pango's fontconfig font map keeps every font pattern it has matched for as
/// long as the map lives (its source: "The patterns are cached indefinitely"),
/// one per distinct family, size, resolution, weight and style; each thread's
/// default map lives as long as the thread. A kiosk's templates use a handful
/// of fonts, but templates (and printers' resolutions) come from outside:
/// 20,000 distinct sizes took a process from 71 MB to 640 MB, 20,000
/// distinct family names to 282 MB (the template fuzzer's inputs). Retiring the map frees all of it; Pango makes a fresh
/// one on demand, and a context made before keeps its old map until it goes.
///
/// Not `Sendable`: a default font map belongs to its thread, and so does this.
final class FontMapUsage {
    /// Fonts a map may serve before it is retired: far more than any real set
    /// of templates uses (so a kiosk never pays for a fresh map's first
    /// fontconfig sort), few enough that what the map keeps stays in the MB.
    static let distinctFontsKept = 256

    /// What makes the map match a pattern of its own: the size it matches
    /// is in pixels, so the same point size at another resolution is another font.
    private struct Font: Hashable {
        var family: String
        var size: Double
        var dpi: Int
        var bold: Bool
        var italic: Bool
    }
    private var seen: Set<Font> = []

    /// How many distinct fonts this map has served.
    var distinctFonts: Int { seen.count }

    var isFull: Bool { seen.count >= Self.distinctFontsKept }

    /// Counts `style`'s font at `dpi`; called for every paragraph, so it only hashes.
    func note(_ style: ResolvedTextStyle, dpi: Int) {
        seen.insert(Font(family: style.font, size: style.size, dpi: dpi, bold: style.bold, italic: style.italic))
    }

    /// This thread's default font map (what `pango_cairo_create_context`
    /// uses) with its usage, after retiring the map if it is full. Call it at
    /// the start of a layout pass: a pass never changes maps halfway.
    static func forThisThreadsDefaultMap() -> FontMapUsage {
        if let usage = attached(to: pango_cairo_font_map_get_default()), usage.isFull {
            pango_cairo_font_map_set_default(nil)  // unreffed; a new one is made on demand
        }
        let map = pango_cairo_font_map_get_default()
        if let usage = attached(to: map) { return usage }
        let usage = FontMapUsage()
        // The map owns one reference, released by GLib when the map is finalized.
        g_object_set_data_full(UnsafeMutableRawPointer(map)?.assumingMemoryBound(to: GObject.self), key,
                               Unmanaged.passRetained(usage).toOpaque()) { pointer in
            if let pointer { Unmanaged<FontMapUsage>.fromOpaque(pointer).release() }
        }
        return usage
    }

    /// This thread's default map as it stands, by address, with its usage
    /// (nil before its first pass); retires nothing. What the tests look at.
    static func peekAtThisThreadsDefaultMap() -> (address: UInt, usage: FontMapUsage?) {
        let map = pango_cairo_font_map_get_default()
        return (UInt(bitPattern: map), attached(to: map))
    }

    private static let key = "kioskprint-font-usage"

    private static func attached(to map: UnsafeMutablePointer<PangoFontMap>?) -> FontMapUsage? {
        guard let data = g_object_get_data(UnsafeMutableRawPointer(map)?.assumingMemoryBound(to: GObject.self), key)
        else { return nil }
        return Unmanaged<FontMapUsage>.fromOpaque(data).takeUnretainedValue()
    }
}
