import Testing
import PrintModel
@testable import Rendering
@testable import Templates

/// A receipt's item lines are a table: consecutive rows declared alike share
/// their automatic column widths, so the quantity column does not move when a
/// price has one digit more.
@Suite struct TableColumnTests {
    /// Start x of each run of ink columns in rows `band`, left to right.
    func inkRuns(_ layout: RenderedLayout, band: Range<Int>) -> [Int] {
        var starts: [Int] = []
        var inside = false
        for x in 0..<layout.width {
            let inked = band.contains { layout.ink(x: x, y: $0) >= 128 }
            if inked, !inside { starts.append(x) }
            inside = inked
        }
        return starts
    }

    @Test func quantitiesLineUpWhenPricesDifferInWidth() throws {
        let rows = [LayoutFixtures.itemRow("x", "1", "3.50"), LayoutFixtures.itemRow("x", "1", "12.50")]
        let layout = LayoutRenderer(geometry: LayoutFixtures.roll80).render(rows)
        #expect(layout.problems.isEmpty)
        let half = layout.height / 2
        let first = inkRuns(layout, band: 0..<half), second = inkRuns(layout, band: half..<layout.height)
        // Runs: "x", then the quantity "1", then the price's digits.
        #expect(first.count >= 3 && second.count >= 3)
        #expect(first[1] == second[1], "quantity at x \(first[1]) in one row and \(second[1]) in the next")

        // The same rows apart (a rule between them) are separate tables: the
        // narrower price leaves its quantity further right, as before.
        let apart = LayoutRenderer(geometry: LayoutFixtures.roll80)
            .render([rows[0], LayoutFixtures.rule(.solid), rows[1]])
        let rowHeight = half
        let top = inkRuns(apart, band: 0..<rowHeight)
        let bottom = inkRuns(apart, band: (apart.height - rowHeight)..<apart.height)
        #expect(top[1] > bottom[1])
    }
}
