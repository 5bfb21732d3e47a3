/// The distinct fonts one Pango font map has been asked for, attached to the
/// map itself, so that the map can be retired before it grows without end.
///
/// Pango's fontconfig font map keeps every font pattern it has matched for as
/// long as the map lives (its source: "The patterns are cached indefinitely"),
/// one per distinct family, size, resolution, weight and style; each thread's
/// default map lives as long as the thread. A kiosk's templates use a handful
/// of fonts, but templates (and printers' resolutions) come from outside:
/// 20,000 distinct sizes took a process from 71 MB to 640 MB, 20,000
/// distinct family names to 282 MB (the template fuzzer's inputs). Retiring
/// the map frees all of it: `FontMaps` lends a fresh one instead, and a
/// context made before keeps its old map until it goes.
///
/// Not `Sendable`: it travels with its map, used by one pass at a time.
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
}
