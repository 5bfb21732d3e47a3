import PrintModel
@testable import Rendering
import Templates
import Testing

/// Issue 14 (found by the template fuzzer): Pango's font map keeps every
/// distinct font it was asked for until the map goes, so templates with
/// ever-new sizes grew the process without end. A map that has served
/// `FontMapUsage.distinctFontsKept` fonts is retired when next lent.
///
/// Each test lends from `FontMaps` of its own, so that other tests drawing
/// at the same time (from the process's shared maps) change nothing here.
@Suite struct FontMapUsageTests {
    let renderer = LayoutRenderer(geometry: LayoutFixtures.roll80)
    let fonts = FontMaps()

    func render(size: Double) -> RenderedLayout {
        renderer.render([LayoutFixtures.text("Total 12.50", LayoutFixtures.style(size: size))],
                        text: TextContext(dpi: LayoutFixtures.roll80.resolution.horizontal, fonts: fonts))
    }

    /// Runs `pass` with 0, 1, 2... for two maps' worth of new fonts; returns
    /// the most fonts one map served and how many maps were retired.
    func twoMapsWorth(_ pass: (Int) -> Void) -> (mostServed: Int, retired: Int) {
        var most = 0
        for index in 0..<(2 * FontMapUsage.distinctFontsKept + 1) {
            pass(index)
            // One pass at a time: its map is back, the only one idle.
            #expect(fonts.idleCount == 1)
            most = max(most, fonts.idleUsage.last?.distinctFonts ?? 0)
        }
        return (most, fonts.retired)
    }

    @Test func aFontMapServesABoundedNumberOfFontsAndIsThenRetired() {
        // A new size every time, as a fuzzer writes them.
        let (most, retired) = twoMapsWorth { _ = render(size: 6 + Double($0) / 8) }
        #expect(most == FontMapUsage.distinctFontsKept, "a font map served up to \(most) fonts")
        #expect(retired == 2, "\(retired) font maps were retired")
    }

    /// Pango matches a size in pixels: a printer reporting ever-new
    /// resolutions grows the map as ever-new sizes do.
    @Test func eachResolutionCountsAsFontsOfItsOwn() {
        let (most, retired) = twoMapsWorth { index in
            var geometry = LayoutFixtures.roll80
            geometry.resolution = Resolution(100 + index)
            _ = LayoutRenderer(geometry: geometry).render([LayoutFixtures.text("Total 12.50")],
                                                          text: TextContext(dpi: 100 + index, fonts: fonts))
        }
        #expect(most == FontMapUsage.distinctFontsKept, "a font map served up to \(most) fonts")
        #expect(retired == 2, "\(retired) font maps were retired")
    }

    @Test func textDrawsTheSameOnAFreshFontMap() {
        let before = render(size: 10)
        for index in 0..<FontMapUsage.distinctFontsKept { _ = render(size: 20 + Double(index) / 8) }
        let after = render(size: 10)
        #expect(before.height > 0)
        #expect(after == before)
    }

    /// What an idle agent does: every map goes, and the next drawing makes a new one.
    @Test func idleMapsAreLetGoAndTextDrawsTheSameAfter() {
        let before = render(size: 10)
        #expect(fonts.idleCount == 1)
        fonts.releaseIdle()
        #expect(fonts.idleCount == 0)
        #expect(render(size: 10) == before)
        #expect(fonts.idleCount == 1)
    }

    /// The agent's idle release keeps the map given back last, with its fonts: a kiosk's
    /// next receipt, minutes later, does not match and load them again (4 to 5 ms of CPU).
    @Test func theIdleReleaseCanKeepTheNewestMap() {
        var older: TextContext? = TextContext(dpi: 203, fonts: fonts)
        var newer: TextContext? = TextContext(dpi: 300, fonts: fonts)
        // Both maps are lent while their contexts live: none is idle.
        withExtendedLifetime((older, newer)) { #expect(fonts.idleCount == 0) }
        older = nil
        newer = nil
        #expect(fonts.idleResolutions == [203, 300])
        fonts.releaseIdle(keepingNewest: 1)
        #expect(fonts.idleResolutions == [300])
        fonts.releaseIdle(keepingNewest: 1)
        #expect(fonts.idleResolutions == [300])
        fonts.releaseIdle()
        #expect(fonts.idleCount == 0)
    }

    /// Passes at the same time each have a map of their own; of those given
    /// back, only `idleKept` wait for the next pass.
    @Test func concurrentPassesBorrowMapsOfTheirOwnAndFewAreKept() {
        let contexts = (0..<5).map { _ in TextContext(dpi: 203, fonts: fonts) }
        #expect(Set(contexts.map { ObjectIdentifier($0.fontUsage) }).count == 5)
        #expect(fonts.idleCount == 0)
        _ = consume contexts
        #expect(fonts.idleCount == fonts.idleKept)
    }
}
