import CPangoCairo
import PrintModel
@testable import Rendering
import Testing

/// A layout pass's font map is at the pass's resolution, and its context in
/// the language Pango gives Latin text: then Pango's own font measurements
/// find the fontconfig patterns the text matched, instead of matching and
/// sorting a second set on threads of their own (the command line's
/// `print --wait` paid that on every run, the agent after every idle spell).
/// That the patterns are fewer is tested where fontconfig can say so, in
/// `RenderCommandTests`; here, the mechanism.
@Suite struct FontMapResolutionTests {
    let fonts = FontMaps()

    static func resolution(of context: TextContext) -> Double {
        pango_cairo_font_map_get_resolution(map(of: context))
    }

    static func map(of context: TextContext) -> OpaquePointer? {
        OpaquePointer(pango_context_get_font_map(context.pango))
    }

    @Test func aPassGetsAMapAtItsResolutionAndTheLatinTextLanguage() {
        for dpi in [203, 300, 600] {
            let context = TextContext(dpi: dpi, fonts: fonts)
            #expect(Self.resolution(of: context) == Double(dpi))
            #expect(pango_context_get_language(context.pango) == pango_script_get_sample_language(PANGO_SCRIPT_LATIN))
        }
    }

    /// An agent with a receipt printer and a label printer keeps a map for
    /// each: lending one at the other's resolution would empty its caches.
    @Test func anIdleMapAtTheSameResolutionIsLentFirst() {
        var receipt: TextContext? = TextContext(dpi: 203, fonts: fonts)
        var label: TextContext? = TextContext(dpi: 300, fonts: fonts)
        let receiptMap = receipt.flatMap(Self.map), labelMap = label.flatMap(Self.map)
        #expect(receiptMap != labelMap)
        receipt = nil
        label = nil
        #expect(fonts.idleCount == 2)
        // The 300 dpi map was given back last; the 203 dpi pass still gets its own.
        let again = TextContext(dpi: 203, fonts: fonts)
        #expect(Self.map(of: again) == receiptMap)
        #expect(Self.resolution(of: again) == 203)
    }

    @Test func anIdleMapAtAnotherResolutionIsMovedToThePasses() {
        var first: TextContext? = TextContext(dpi: 203, fonts: fonts)
        let map = first.flatMap(Self.map)
        first = nil
        let moved = TextContext(dpi: 600, fonts: fonts)
        #expect(Self.map(of: moved) == map)
        #expect(Self.resolution(of: moved) == 600)
        var geometry = LayoutFixtures.roll80
        geometry.resolution = Resolution(600)
        #expect(LayoutRenderer(geometry: geometry).render([LayoutFixtures.text("Total 12.50")], text: moved).height > 0)
    }
}
