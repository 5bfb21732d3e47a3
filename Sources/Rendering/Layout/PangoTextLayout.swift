import CPangoCairo
import Templates

/// One paragraph laid out by Pango at the printer's resolution: measured
/// first, drawn later onto the page surface (whose height is only known
/// once every block is measured).
///
/// Owns its `PangoLayout` and frees it when it goes; keeps the shared
/// `TextContext` alive. Internal and not `Sendable`: it lives only inside
/// one layout pass.
final class PangoTextLayout {
    /// The Pango layout; laid out again from the text when it was let go.
    var layout: OpaquePointer {
        if let kept { return kept }
        let made = context.layout(text: text, style: style, width: width)
        kept = made
        return made
    }
    private var kept: OpaquePointer?
    private let context: TextContext
    let style: ResolvedTextStyle
    let text: String
    /// The width it was laid out in, in dots; nil for one unwrapped line.
    let width: Int?

    /// Lays out `text` in `style`. `width` in dots: the text wraps (or is
    /// ellipsized, for `wrap: none`) within it; nil = one unwrapped line per
    /// paragraph, for measuring an automatic column's natural width.
    init(text: String, style: ResolvedTextStyle, width: Int?, context: TextContext) {
        self.text = text
        self.style = style
        self.context = context
        self.width = width
        kept = context.layout(text: text, style: style, width: width)
    }

    /// A new layout of `text`, which `context` keeps for the passes after it (see `LayoutCache`).
    fileprivate static func makeLayout(text: String, style: ResolvedTextStyle, width: Int?, context: TextContext) -> OpaquePointer {
        context.fontUsage.note(style, dpi: context.dpi)
        let layout = pango_layout_new(context.pango)!

        let description = pango_font_description_from_string(style.font)
        pango_font_description_set_size(description, Int32((style.size * Double(kp_pango_scale())).rounded()))
        pango_font_description_set_weight(description, style.bold ? PANGO_WEIGHT_BOLD : PANGO_WEIGHT_NORMAL)
        pango_font_description_set_style(description, style.italic ? PANGO_STYLE_ITALIC : PANGO_STYLE_NORMAL)
        pango_layout_set_font_description(layout, description)
        pango_font_description_free(description)

        if style.underline {
            let attributes = pango_attr_list_new()
            pango_attr_list_insert(attributes, pango_attr_underline_new(PANGO_UNDERLINE_SINGLE))
            pango_layout_set_attributes(layout, attributes)
            pango_attr_list_unref(attributes)
        }

        switch style.align {
        case .left: pango_layout_set_alignment(layout, PANGO_ALIGN_LEFT)
        case .center: pango_layout_set_alignment(layout, PANGO_ALIGN_CENTER)
        case .right: pango_layout_set_alignment(layout, PANGO_ALIGN_RIGHT)
        }
        if let width {
            pango_layout_set_width(layout, Int32(max(1, width)) * kp_pango_scale())
            switch style.wrap {
            // WORD_CHAR, not WORD: a word longer than the column (a URL, a
            // long SKU) breaks between letters instead of running off the paper.
            case .word: pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR)
            case .char: pango_layout_set_wrap(layout, PANGO_WRAP_CHAR)
            // No wrap: ellipsize rather than clip, so the reader sees that
            // something was cut ("…"), and the renderer reports it.
            case .none: pango_layout_set_ellipsize(layout, PANGO_ELLIPSIZE_END)
            }
        } else {
            pango_layout_set_width(layout, -1)
        }
        if style.lineSpacing != 1 {
            // A factor of the font's line height (Pango >= 1.44).
            pango_layout_set_line_spacing(layout, Float(style.lineSpacing))
        }
        text.withCString { pango_layout_set_text(layout, $0, -1) }
        return layout
    }

    deinit {
        if let kept { g_object_unref(UnsafeMutableRawPointer(kept)) }
    }

    /// The logical size in whole dots (rounded up, so nothing is cut off);
    /// measured once, so a layout whose lines were let go is not laid out
    /// again just to be measured.
    private(set) lazy var size: (width: Int, height: Int) = {
        var width: Int32 = 0, height: Int32 = 0
        pango_layout_get_size(layout, &width, &height)
        let scale = kp_pango_scale()
        return (Int((width + scale - 1) / scale), Int((height + scale - 1) / scale))
    }()

    /// Lets go of the Pango layout (its glyphs, runs, font and attributes),
    /// keeping the text, its style and its measured size: it is laid out
    /// again when it is drawn. A long report measured whole would otherwise
    /// hold every paragraph's layout until its last piece is drawn.
    func releaseLines() {
        _ = size
        if let kept { g_object_unref(UnsafeMutableRawPointer(kept)) }
        kept = nil
    }

    /// Lines after wrapping.
    var lineCount: Int { Int(pango_layout_get_line_count(layout)) }

    /// Rows from the layout's top to its first line's baseline.
    var baseline: Int { Int(pango_layout_get_baseline(layout) / kp_pango_scale()) }

    /// One line after wrapping: its text and its rows within the layout.
    struct LineExtent {
        /// The line's characters, without the space or break it wrapped at.
        var text: String
        /// Its logical rows, from the layout's top.
        var rows: Range<Int>
        /// Rows from the layout's top to its baseline.
        var baseline: Int
    }

    /// Every line after wrapping, top to bottom.
    var lineExtents: [LineExtent] {
        let utf8 = Array(text.utf8)
        let scale = kp_pango_scale()
        var extents: [LineExtent] = []
        guard let iter = pango_layout_get_iter(layout) else { return [] }
        defer { pango_layout_iter_free(iter) }
        repeat {
            guard let line = pango_layout_iter_get_line_readonly(iter) else { break }
            let start = Int(pango_layout_line_get_start_index(line)), length = Int(pango_layout_line_get_length(line))
            let bytes = utf8[max(0, min(start, utf8.count))..<max(0, min(start + length, utf8.count))]
            var logical = PangoRectangle()
            pango_layout_iter_get_line_extents(iter, nil, &logical)
            let top = Int(logical.y / scale), bottom = Int((logical.y + logical.height + scale - 1) / scale)
            let words = String(decoding: bytes, as: UTF8.self)
            extents.append(LineExtent(text: String(words.reversed().drop { $0.isWhitespace }.reversed()), rows: top..<bottom,
                                      baseline: Int(pango_layout_iter_get_baseline(iter) / scale)))
        } while pango_layout_iter_next_line(iter) != 0
        return extents
    }

    /// Characters the fonts could not show (0 when all is well).
    var unknownGlyphCount: Int { Int(pango_layout_get_unknown_glyphs_count(layout)) }

    /// True when `wrap: none` text did not fit and was ellipsized.
    var isEllipsized: Bool { pango_layout_is_ellipsized(layout) != 0 }

    /// The distinct characters of `text` the fonts lack, found by laying out
    /// each on its own; only run once a paragraph is known to lack some.
    func missingCharacters() -> [Character] {
        var seen = Set<Character>(), missing: [Character] = []
        for character in text where !character.isWhitespace && seen.insert(character).inserted {
            let probe = PangoTextLayout(text: String(character), style: style, width: nil, context: context)
            if probe.unknownGlyphCount > 0 { missing.append(character) }
        }
        return missing
    }

    /// Draws the layout with its top-left at (x, y) in dots, with `cr`'s
    /// current source and operator (CLEAR for inverse text).
    func draw(on cr: OpaquePointer, x: Int, y: Int) {
        cairo_move_to(cr, Double(x), Double(y))
        context.update(layout, toDrawOn: cr)
        pango_cairo_show_layout(cr, layout)
    }
}

/// One Pango context for every paragraph of a layout pass, at the printer's
/// resolution. Making a context per paragraph cost more than laying the
/// text out (a 30-item receipt has about a hundred paragraphs). The context
/// is the lent font map's, kept with it, so that the paragraphs the map laid
/// out for earlier passes serve this one (`LayoutCache`).
final class TextContext {
    let dpi: Int
    private let surface: OpaquePointer
    private let cr: OpaquePointer
    let pango: OpaquePointer
    /// The fonts asked of this pass's font map (see `FontMapUsage`).
    var fontUsage: FontMapUsage { map.usage }
    /// The map lent to this pass, given back when the context goes.
    let map: LentMap
    private let fonts: FontMaps

    /// - Parameter updatingOnEveryDraw: bring the context to the surface
    ///   before every layout is drawn, as Pango's own drawing does, even when
    ///   nothing would change: the reference the tests compare the fast path with.
    /// - Parameter fonts: where the font map comes from (the process's maps;
    ///   tests bring their own).
    init(dpi: Int, updatingOnEveryDraw: Bool = false, fonts: FontMaps = .shared) {
        self.dpi = dpi
        followsOtherSurfaces = updatingOnEveryDraw
        self.fonts = fonts
        // A full map is retired when lent, so the context takes a fresh one.
        map = fonts.lend(dpi: dpi)
        // Pango takes its font options from a cairo context: an A8 surface
        // like the page's, so hinting and antialiasing match what is drawn.
        surface = cairo_image_surface_create(CAIRO_FORMAT_A8, 1, 1)
        cr = cairo_create(surface)
        pango = map.context
        // Each of these counts as a change of context even when it changes
        // nothing (Pango sets the matrix anew), and a changed context lays
        // every kept paragraph out again: so each is made only when needed.
        // The map's context was brought to a surface like `cr` when it was
        // made, and again only after a pass drew on another kind of surface.
        if map.layouts.contextLeftItsSurface {
            pango_cairo_update_context(cr, pango)
            map.layouts.contextLeftItsSurface = false
        }
        // Points are real points at the printer's dpi: 1 user unit = 1 dot.
        if pango_cairo_context_get_resolution(pango) != Double(dpi) {
            pango_cairo_context_set_resolution(pango, Double(dpi))
        }
        // The language Pango itself gives Latin text it cannot place in the
        // context's. With none set, Pango asked fontconfig for the C locale's
        // "c" (the service runs in it) and tagged some runs with this one, so
        // a style had two fontconfig patterns, each matched and sorted on a
        // thread of Pango's. The preferred languages ($LANGUAGE, $LANG) pick
        // it ("de" under de_DE); text in another script still gets its own.
        let latin = pango_script_get_sample_language(PANGO_SCRIPT_LATIN)
        if pango_context_get_language(pango) != latin { pango_context_set_language(pango, latin) }
    }

    deinit {
        cairo_destroy(cr)
        cairo_surface_destroy(surface)
        fonts.giveBack(map)
    }

    /// A layout of `text` with a reference of the caller's own: one kept by
    /// the map if an earlier paragraph had the same text, style and width.
    func layout(text: String, style: ResolvedTextStyle, width: Int?) -> OpaquePointer {
        map.layouts.layout(for: LayoutCache.Key(text: text, style: style, width: width)) {
            PangoTextLayout.makeLayout(text: text, style: style, width: width, context: self)
        }
    }

    /// Set once a layout was drawn on a surface unlike the one the context
    /// was made from (a PDF page, a turned page): from then on every draw
    /// brings the context to its surface, as Pango's own drawing does.
    private var followsOtherSurfaces: Bool

    /// Brings `layout`'s context to `cr` before it is drawn there, unless
    /// `cr` is like the surface the text was laid out for (an image surface,
    /// not turned or scaled, the same font options): then nothing would
    /// change. `pango_cairo_update_layout` sets the context's matrix each
    /// time, and Pango counts that as a change of context, so every layout of
    /// the pass was shaped a second time when drawn: about a third of the text's cost.
    func update(_ layout: OpaquePointer, toDrawOn target: OpaquePointer) {
        if !followsOtherSurfaces, Self.drawsAlike(target, cr) { return }
        followsOtherSurfaces = true
        map.layouts.contextLeftItsSurface = true
        pango_cairo_update_layout(target, layout)
    }

    /// Whether text laid out for `reference` comes out the same on `target`:
    /// both image surfaces, the same linear transform (Pango ignores the
    /// translation), the same font options.
    private static func drawsAlike(_ target: OpaquePointer, _ reference: OpaquePointer) -> Bool {
        guard cairo_surface_get_type(cairo_get_target(target)) == CAIRO_SURFACE_TYPE_IMAGE,
              cairo_surface_get_type(cairo_get_target(reference)) == CAIRO_SURFACE_TYPE_IMAGE else { return false }
        var matrix = cairo_matrix_t(), own = cairo_matrix_t()
        cairo_get_matrix(target, &matrix)
        cairo_get_matrix(reference, &own)
        guard matrix.xx == own.xx, matrix.yx == own.yx, matrix.xy == own.xy, matrix.yy == own.yy else { return false }
        let options = cairo_font_options_create(), ownOptions = cairo_font_options_create()
        defer { cairo_font_options_destroy(options); cairo_font_options_destroy(ownOptions) }
        cairo_get_font_options(target, options)
        cairo_get_font_options(reference, ownOptions)
        let targetSurface = cairo_font_options_create(), ownSurface = cairo_font_options_create()
        defer { cairo_font_options_destroy(targetSurface); cairo_font_options_destroy(ownSurface) }
        cairo_surface_get_font_options(cairo_get_target(target), targetSurface)
        cairo_surface_get_font_options(cairo_get_target(reference), ownSurface)
        return cairo_font_options_equal(options, ownOptions) != 0 && cairo_font_options_equal(targetSurface, ownSurface) != 0
    }
}
