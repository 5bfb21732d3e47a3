import CPangoCairo
import PrintModel
@testable import Rendering
import Templates
import Testing

/// A font map keeps the paragraphs its passes laid out, and the next pass
/// with the same text, style and width takes them instead of laying them out
/// again; what it draws is what a fresh map draws.
@Suite struct LayoutCacheTests {
    let fonts = FontMaps()
    let style = ResolvedTextStyle(TextStyle())

    @Test func theNextPassTakesAKeptParagraphWithoutLayingItOutAgain() {
        var first: TextContext? = TextContext(dpi: 203, fonts: fonts)
        let serial = first.map { PangoTextLayout(text: "1 ×", style: style, width: 88, context: $0).pangoSerial }
        first = nil
        #expect(fonts.idleLayoutCounts == [1])

        let next = TextContext(dpi: 203, fonts: fonts)
        let hits = next.mapHits
        let again = PangoTextLayout(text: "1 ×", style: style, width: 88, context: next)
        // The same Pango layout, not laid out since: the context the map keeps
        // was brought to an alike surface, which Pango sees as no change.
        #expect(again.pangoSerial == serial)
        #expect(fonts.idleLayoutCounts.isEmpty)  // the map is lent again
        #expect(next.mapHits - hits == 1)
    }

    @Test func anotherWidthStyleOrTextIsLaidOutOnItsOwn() {
        let context = TextContext(dpi: 203, fonts: fonts)
        let hits = context.mapHits
        var bold = style
        bold.bold = true
        let sizes = [
            PangoTextLayout(text: "Total 12.50", style: style, width: 400, context: context).size,
            PangoTextLayout(text: "Total 12.50", style: style, width: 100, context: context).size,
            PangoTextLayout(text: "Total 12.50", style: bold, width: 400, context: context).size,
            PangoTextLayout(text: "Total 12.5", style: style, width: 400, context: context).size,
            PangoTextLayout(text: "Total 12.50", style: style, width: 400, context: context).size,
        ]
        #expect(context.mapHits - hits == 1)
        #expect(sizes[0] == sizes[4])
        #expect(sizes[1].height > sizes[0].height)  // wrapped within 100 dots
        #expect(sizes[2].width > sizes[0].width)
        #expect(sizes[3].width < sizes[0].width)
    }

    @Test func aReceiptDrawnFromKeptParagraphsIsTheOneAFreshMapDraws() {
        let renderer = LayoutRenderer(geometry: LayoutFixtures.roll80)
        let receipt = LayoutFixtures.sampleReceipt(items: 12)
        let fresh = renderer.render(receipt, text: TextContext(dpi: 203, fonts: FontMaps()))
        _ = renderer.render(receipt, text: TextContext(dpi: 203, fonts: fonts))
        let warm = TextContext(dpi: 203, fonts: fonts)
        let hits = warm.mapHits
        let kept = renderer.render(receipt, text: warm)
        #expect(warm.mapHits - hits > 30)
        #expect(kept.ink == fresh.ink)
        #expect(kept.height == fresh.height)
    }

    /// A pass that drew on a scaled surface (as the PDF writer's, or a turned
    /// label's) brought the map's context to that surface; the next pass's
    /// kept paragraphs must not be drawn with those metrics.
    @Test func aPassAfterOneOnAnotherSurfaceDrawsWhatAFreshMapDraws() {
        let renderer = LayoutRenderer(geometry: LayoutFixtures.roll80)
        let receipt = LayoutFixtures.sampleReceipt(items: 4)
        let fresh = renderer.render(receipt, text: TextContext(dpi: 203, fonts: FontMaps()))

        do {
            let context = TextContext(dpi: 203, fonts: fonts)
            let plan = renderer.plan(receipt, text: context)
            let surface = cairo_image_surface_create(CAIRO_FORMAT_A8, 1200, 2400)!
            let cr = cairo_create(surface)!
            cairo_scale(cr, 2, 2)
            for operation in plan.operations { operation.draw(with: cr) }
            cairo_destroy(cr)
            cairo_surface_destroy(surface)
        }
        let after = TextContext(dpi: 203, fonts: fonts)
        let hits = after.mapHits
        let drawn = renderer.render(receipt, text: after)
        #expect(after.mapHits - hits > 10)
        #expect(drawn.ink == fresh.ink)
    }

    @Test func aMapMovedToAnotherResolutionKeepsNoLayoutsOfTheOld() {
        var first: TextContext? = TextContext(dpi: 203, fonts: fonts)
        _ = first.map { PangoTextLayout(text: "Receipt", style: style, width: nil, context: $0).size }
        first = nil
        let moved = TextContext(dpi: 300, fonts: fonts)
        let hits = moved.mapHits
        _ = PangoTextLayout(text: "Receipt", style: style, width: nil, context: moved).size
        #expect(moved.mapHits == hits)
    }

    @Test func theOldestGenerationGoesWhenTheNewerIsFullAndAHitMovesALayoutUp() {
        let fontMap = pango_cairo_font_map_new()!
        defer { g_object_unref(UnsafeMutableRawPointer(fontMap)) }
        let cache = LayoutCache(fontMap: fontMap, generationSize: 2)
        func take(_ text: String) {
            let layout = cache.layout(for: LayoutCache.Key(text: text, style: style, width: nil)) {
                pango_layout_new(cache.context)!
            }
            g_object_unref(UnsafeMutableRawPointer(layout))
        }
        take("a"); take("b")          // newer: a b
        take("c")                     // older: a b, newer: c
        take("a")                     // a hit in the older moves up: newer c a
        #expect(cache.hits == 1)
        take("d")                     // newer full: older c a, newer d; b goes
        #expect(cache.count == 3)
        take("b")
        #expect(cache.hits == 1)      // b was let go
        take("c")
        #expect(cache.hits == 2)
    }

    @Test func longParagraphsAreNotKept() {
        let context = TextContext(dpi: 203, fonts: fonts)
        let hits = context.mapHits
        let long = String(repeating: "A long paragraph of a report. ", count: 10)
        _ = PangoTextLayout(text: long, style: style, width: 500, context: context).size
        _ = PangoTextLayout(text: long, style: style, width: 500, context: context).size
        #expect(context.mapHits == hits)
        #expect(context.keptLayouts == 0)
    }
}

/// What these tests read of a pass, kept here rather than in the product types.
extension PangoTextLayout {
    /// Pango's count of the layout's changes, which moves when it is laid
    /// out again (its context changed).
    var pangoSerial: UInt32 { pango_layout_get_serial(layout) }
}

extension TextContext {
    /// Paragraphs the lent map's passes took from its kept layouts, this
    /// pass's and the earlier ones': a test takes it when the pass starts.
    var mapHits: Int { map.layouts.hits }
    /// How many paragraphs the lent map keeps.
    var keptLayouts: Int { map.layouts.count }
}
