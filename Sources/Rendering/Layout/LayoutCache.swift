import CPangoCairo

/// Paragraphs laid out by one font map, kept across jobs: a till prints
/// the same shop name, column headings, quantities ("1 ×") and footer on
/// every receipt, and Pango would itemize and shape each of them again.
///
/// A layout is taken again only for the same text, style and width, at the
/// map's resolution (a map moved to another resolution starts a new cache),
/// and laid out with the cache's own Pango context (a layout keeps the
/// context it was made with, so the two live and go together). Pango checks the context's
/// serial whenever a layout is measured or drawn, so a layout whose context
/// changed since (another surface's font options, another resolution) is
/// laid out again by Pango itself: a kept layout can be slow, never stale.
///
/// Bounded in two generations: a hit in the older one moves the layout to the
/// newer; when the newer holds `generationSize`, the older is let go. So at most
/// `2 * generationSize` layouts are held, the ones used least recently go
/// first, and no lookup walks a list. Text longer than `longestText` bytes
/// (a report's paragraph, a long address) is not kept.
///
/// Not `Sendable`: it travels with its map, used by one pass at a time (see `FontMaps`).
final class LayoutCache {
    /// What makes a layout the same: the paragraph, its style and its width in dots.
    struct Key: Hashable {
        var text: String
        var style: ResolvedTextStyle
        var width: Int?
    }

    /// Layouts per generation: a receipt has about a hundred paragraphs,
    /// of which a few dozen come back on the next one.
    static let generationSize = 256
    /// Longer paragraphs are laid out each time: they rarely repeat, and
    /// would hold most of the cache's memory.
    static let longestText = 160

    let generationSize: Int
    /// The Pango context of the font map every kept layout was made with.
    let context: OpaquePointer
    private var newer: [Key: OpaquePointer] = [:]
    private var older: [Key: OpaquePointer] = [:]
    private(set) var hits = 0
    /// Set when a pass brought the map's context to a surface unlike the
    /// image surfaces passes lay out for (a PDF page, a scaled one): the
    /// next pass brings it back. True until the first pass has.
    var contextLeftItsSurface = true

    /// A cache whose layouts are made with a new context of `fontMap`.
    init(fontMap: UnsafeMutablePointer<PangoFontMap>, generationSize: Int = LayoutCache.generationSize) {
        self.generationSize = generationSize
        context = pango_font_map_create_context(fontMap)
    }

    deinit {
        removeAll()
        g_object_unref(UnsafeMutableRawPointer(context))
    }

    /// The layout kept for `key` with a reference of the caller's own, or
    /// one `make` lays out (and kept, unless its text is too long).
    func layout(for key: Key, make: () -> OpaquePointer) -> OpaquePointer {
        guard key.text.utf8.count <= Self.longestText else { return make() }
        if let kept = newer[key] {
            hits += 1
            return Self.referenced(kept)
        }
        if let kept = older.removeValue(forKey: key) {
            hits += 1
            keep(kept, for: key)
            return Self.referenced(kept)
        }
        let made = make()
        keep(Self.referenced(made), for: key)
        return made
    }

    /// How many layouts are kept now.
    var count: Int { newer.count + older.count }

    /// Lets go of every kept layout.
    private func removeAll() {
        for layout in newer.values { g_object_unref(UnsafeMutableRawPointer(layout)) }
        for layout in older.values { g_object_unref(UnsafeMutableRawPointer(layout)) }
        newer = [:]
        older = [:]
    }

    private func keep(_ layout: OpaquePointer, for key: Key) {
        if newer.count >= generationSize {
            for retired in older.values { g_object_unref(UnsafeMutableRawPointer(retired)) }
            older = newer
            newer = [:]
        }
        newer[key] = layout
    }

    private static func referenced(_ layout: OpaquePointer) -> OpaquePointer {
        g_object_ref(UnsafeMutableRawPointer(layout))
        return layout
    }
}
