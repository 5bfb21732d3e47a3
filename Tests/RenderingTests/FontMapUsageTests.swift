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

    @Test func aFontMapServesABoundedNumberOfFontsAndIsThenRetired() {
        let kept = FontMapUsage.distinctFontsKept
        var maps: [UInt] = [], most = 0
        for index in 0..<(2 * kept + 1) {
            _ = render(size: 6 + Double(index) / 8)  // a new size every time, as a fuzzer writes them
            let (map, usage) = FontMapUsage.peekAtThisThreadsDefaultMap()
            if maps.last != map { maps.append(map) }
            most = max(most, usage?.distinctFonts ?? 0)
        }
        #expect(most == kept, "the thread's font map served up to \(most) fonts, where \(kept) are kept")
        // Other tests may have used this thread's map before; two retirements at least are ours.
        #expect(maps.count >= 3, "the default font map was replaced \(maps.count - 1) times over \(2 * kept + 1) new sizes")
    }

    @Test func textDrawsTheSameOnAFreshFontMap() {
        let before = render(size: 10)
        for index in 0..<FontMapUsage.distinctFontsKept { _ = render(size: 20 + Double(index) / 8) }
        let after = render(size: 10)
        #expect(before.height > 0)
        #expect(after == before)
    }
}
