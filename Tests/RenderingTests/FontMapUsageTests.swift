import PrintModel
@testable import Rendering
import Templates
import Testing

/// Issue 14 (found by the template fuzzer): Pango's font map keeps every
/// distinct font it was asked for until the map goes, so templates with
/// ever-new sizes grew the process without end. A map that has served
/// `FontMapUsage.distinctFontsKept` fonts is retired before the next pass.
///
/// Synchronous on purpose: a default font map belongs to its thread, and a
/// synchronous test stays on one thread from start to end.
@Suite struct FontMapUsageTests {
    let renderer = LayoutRenderer(geometry: LayoutFixtures.roll80)

    func render(size: Double) -> RenderedLayout {
        renderer.render([LayoutFixtures.text("Total 12.50", LayoutFixtures.style(size: size))])
    }

    /// Runs `pass` with 0, 1, 2... for two maps' worth of new fonts; returns
    /// the most fonts this thread's map served and how many maps it went through.
    func twoMapsWorth(_ pass: (Int) -> Void) -> (mostServed: Int, maps: Int) {
        var maps: [UInt] = [], most = 0
        for index in 0..<(2 * FontMapUsage.distinctFontsKept + 1) {
            pass(index)
            let (map, usage) = FontMapUsage.peekAtThisThreadsDefaultMap()
            if maps.last != map { maps.append(map) }
            most = max(most, usage?.distinctFonts ?? 0)
        }
        return (most, maps.count)
    }

    @Test func aFontMapServesABoundedNumberOfFontsAndIsThenRetired() {
        // A new size every time, as a fuzzer writes them.
        let (most, maps) = twoMapsWorth { _ = render(size: 6 + Double($0) / 8) }
        #expect(most == FontMapUsage.distinctFontsKept, "the thread's font map served up to \(most) fonts")
        // Other tests may have used this thread's map before; two retirements at least are ours.
        #expect(maps >= 3, "the default font map was replaced \(maps - 1) times")
    }

    /// Pango matches a size in pixels: a printer reporting ever-new
    /// resolutions grows the map as ever-new sizes do.
    @Test func eachResolutionCountsAsFontsOfItsOwn() {
        let (most, maps) = twoMapsWorth { index in
            var geometry = LayoutFixtures.roll80
            geometry.resolution = Resolution(100 + index)
            _ = LayoutRenderer(geometry: geometry).render([LayoutFixtures.text("Total 12.50")])
        }
        #expect(most == FontMapUsage.distinctFontsKept, "the thread's font map served up to \(most) fonts")
        #expect(maps >= 3, "the default font map was replaced \(maps - 1) times")
    }

    @Test func textDrawsTheSameOnAFreshFontMap() {
        let before = render(size: 10)
        for index in 0..<FontMapUsage.distinctFontsKept { _ = render(size: 20 + Double(index) / 8) }
        let after = render(size: 10)
        #expect(before.height > 0)
        #expect(after == before)
    }
}
