import Foundation
import Testing
import PrintModel

/// Where the paper is cut: after a receipt's content, at a ticket's stock
/// length, at a label's size; long content split over several pieces.
@Suite struct CutPlannerTests {
    static let receipt = try! PageGeometry(capabilities: SimulatedMedia.receipt80mm)
    static let label = try! PageGeometry(capabilities: SimulatedMedia.label4x6)
    static let office = try! PageGeometry(capabilities: SimulatedMedia.documentA4)
    /// A receipt layout with 3 mm above and 5 mm below the content.
    static let receiptWithMargins = PageGeometry.preview(
        width: .millimetres(80), dpi: 203,
        margins: Margins(top: .millimetres(3), bottom: .millimetres(5), left: .millimetres(4), right: .millimetres(4)))

    @Test func receiptLengthIsContentPlusMarginsAndGrowsWithContent() throws {
        let short = try CutPlanner.plan(contentHeight: .millimetres(100), policy: .afterContent(),
                                        geometry: Self.receiptWithMargins)
        #expect(short.pieces.count == 1)
        #expect(short.pieces[0].length == .millimetres(108))
        #expect(short.pieces[0].yDimension == 10800)
        #expect(short.pieces[0].content == Length.zero..<Length.millimetres(100))
        // The raster height comes from the same length: 108 mm at 203 dpi = 863.1 rows.
        #expect(short.pieces[0].heightInDots == 863)
        #expect(short.pieces[0].printableDots == DotRect(x: 32, y: 24, width: 576, height: 800))

        let long = try CutPlanner.plan(contentHeight: .millimetres(150), policy: .afterContent(),
                                       geometry: Self.receiptWithMargins)
        #expect(long.pieces.map(\.yDimension) == [15800])
        #expect(long.pieces[0].length > short.pieces[0].length)
    }

    @Test func simulatedReceiptPrinterHasNoTopOrBottomMargin() throws {
        let plan = try CutPlanner.plan(contentHeight: .millimetres(123.45), policy: .afterContent(), geometry: Self.receipt)
        #expect(plan.pieces.map(\.yDimension) == [12345])
    }

    @Test func shortReceiptIsRaisedToTheShortestCut() throws {
        let plan = try CutPlanner.plan(contentHeight: .millimetres(10), policy: .afterContent(), geometry: Self.receipt)
        #expect(plan.pieces.map(\.yDimension) == [2500])
        #expect(plan.pieces[0].contentHeight == .millimetres(10), "the piece is longer, the content is not")
        let empty = try CutPlanner.plan(contentHeight: .zero, policy: .afterContent(), geometry: Self.receipt)
        #expect(empty.pieces.map(\.yDimension) == [2500])
    }

    @Test func templateMinimumRaisesTheCut() throws {
        let plan = try CutPlanner.plan(contentHeight: .millimetres(10), policy: .afterContent(minimum: .millimetres(40)),
                                       geometry: Self.receipt)
        #expect(plan.pieces.map(\.yDimension) == [4000])
        let longer = try CutPlanner.plan(contentHeight: .millimetres(60), policy: .afterContent(minimum: .millimetres(40)),
                                         geometry: Self.receipt)
        #expect(longer.pieces.map(\.yDimension) == [6000])
        #expect(throws: CutError.minimumOutOfRange(.millimetres(4000), allowed: Length.millimetres(25)...Length.millimetres(3000))) {
            try CutPlanner.plan(contentHeight: .millimetres(10), policy: .afterContent(minimum: .millimetres(4000)),
                                geometry: Self.receipt)
        }
    }

    @Test func longContentIsSplitNeverTruncated() throws {
        let plan = try CutPlanner.plan(contentHeight: .millimetres(7500), policy: .afterContent(), geometry: Self.receipt)
        #expect(plan.pieces.count == 3)
        #expect(plan.isSplit)
        #expect(plan.pieces.map(\.yDimension) == [300000, 300000, 150000])
        #expect(plan.pieces.allSatisfy { $0.length <= .millimetres(3000) })
        #expect(plan.pieces.map(\.content) == [Length.zero..<Length.millimetres(3000),
                                               Length.millimetres(3000)..<Length.millimetres(6000),
                                               Length.millimetres(6000)..<Length.millimetres(7500)])
        #expect(plan.contentCovered == .millimetres(7500))
        #expect(plan.totalLength == .millimetres(7500))
    }

    @Test func splitsFallOnTheLastAllowedBreakThatFits() throws {
        let breaks: [Length] = [1000, 2900, 3100, 5800, 6100, 7000].map { .millimetres($0) }
        let plan = try CutPlanner.plan(contentHeight: .millimetres(7500), policy: .afterContent(),
                                       geometry: Self.receipt, breaks: breaks.reversed())
        #expect(plan.pieces.map(\.content) == [Length.zero..<Length.millimetres(2900),
                                               Length.millimetres(2900)..<Length.millimetres(5800),
                                               Length.millimetres(5800)..<Length.millimetres(7500)])
        #expect(plan.pieces.map(\.yDimension) == [290000, 290000, 170000])
        #expect(plan.contentCovered == .millimetres(7500))
    }

    @Test func withoutABreakThatFitsTheSplitIsHard() throws {
        let plan = try CutPlanner.plan(contentHeight: .millimetres(7500), policy: .afterContent(),
                                       geometry: Self.receipt, breaks: [.millimetres(5000)])
        #expect(plan.pieces.map(\.content) == [Length.zero..<Length.millimetres(3000),
                                               Length.millimetres(3000)..<Length.millimetres(5000),
                                               Length.millimetres(5000)..<Length.millimetres(7500)])
    }

    @Test func splitPiecesLeaveRoomForTheMargins() throws {
        let geometry = PageGeometry.preview(width: .millimetres(80), dpi: 203,
                                            margins: Margins(top: .millimetres(2), bottom: .millimetres(2)),
                                            cutLengths: Length.millimetres(25)...Length.millimetres(100))
        let plan = try CutPlanner.plan(contentHeight: .millimetres(250), policy: .afterContent(), geometry: geometry)
        #expect(plan.pieces.map(\.contentHeight) == [.millimetres(96), .millimetres(96), .millimetres(58)])
        #expect(plan.pieces.map(\.yDimension) == [10000, 10000, 6200])
    }

    @Test func fixedTicketIsCutAtItsStockLength() throws {
        // Boarding-pass stock: 8 in across, cut every 3.25 in.
        let geometry = PageGeometry.preview(width: .inches(8), dpi: 203,
                                            cutLengths: Length.millimetres(50)...Length.millimetres(300))
        let plan = try CutPlanner.plan(contentHeight: .millimetres(60), policy: .fixed(.inches(3.25)), geometry: geometry)
        #expect(plan.pieces.map(\.yDimension) == [8255])
        #expect(plan.pieces[0].heightInDots == 659)
        let receipt = try CutPlanner.plan(contentHeight: .millimetres(60), policy: .fixed(.inches(3.25)),
                                          geometry: Self.receipt)
        #expect(receipt.pieces.map(\.yDimension) == [8255])
    }

    @Test func fixedContentLongerThanTheStockTakesSeveralTickets() throws {
        let plan = try CutPlanner.plan(contentHeight: .millimetres(200), policy: .fixed(.inches(3.25)), geometry: Self.receipt)
        #expect(plan.pieces.map(\.yDimension) == [8255, 8255, 8255])
        #expect(plan.contentCovered == .millimetres(200))
    }

    @Test func fixedLengthOutsideTheRollsRangeNamesTheRange() {
        let range = Length.millimetres(25)...Length.millimetres(3000)
        #expect(throws: CutError.fixedLengthOutOfRange(.millimetres(20), allowed: range)) {
            try CutPlanner.plan(contentHeight: .millimetres(10), policy: .fixed(.millimetres(20)), geometry: Self.receipt)
        }
        #expect(throws: CutError.fixedLengthOutOfRange(.millimetres(3500), allowed: range)) {
            try CutPlanner.plan(contentHeight: .millimetres(10), policy: .fixed(.millimetres(3500)), geometry: Self.receipt)
        }
        let message = CutError.fixedLengthOutOfRange(.millimetres(20), allowed: range).description
        #expect(message.contains("20 mm") && message.contains("between 25 mm and 3000 mm"))
    }

    @Test func sheetIsCutAtItsSize() throws {
        let plan = try CutPlanner.plan(contentHeight: .millimetres(80), policy: .sheet, geometry: Self.label)
        #expect(plan.pieces.map(\.yDimension) == [15240])
        #expect(plan.pieces[0].heightInDots == 1218)
        #expect(plan.pieces[0].printableDots == DotRect(x: 0, y: 0, width: 812, height: 1218))
        let fixed = try CutPlanner.plan(contentHeight: .millimetres(80), policy: .fixed(.inches(6)), geometry: Self.label)
        #expect(fixed.pieces.map(\.yDimension) == [15240])
        #expect(throws: CutError.fixedLengthLongerThanSheet(.inches(8), sheet: .inches(6))) {
            try CutPlanner.plan(contentHeight: .millimetres(80), policy: .fixed(.inches(8)), geometry: Self.label)
        }
    }

    @Test func receiptOnSheetsFillsPageAfterPage() throws {
        let plan = try CutPlanner.plan(contentHeight: .millimetres(600), policy: .afterContent(), geometry: Self.office)
        #expect(plan.pieces.map(\.yDimension) == [29700, 29700, 29700])
        #expect(plan.pieces.map(\.contentHeight) == [Length(hundredthsOfMillimetre: 28854), Length(hundredthsOfMillimetre: 28854),
                                                     Length(hundredthsOfMillimetre: 2292)])
    }

    @Test func refusedPlansSayWhatToDo() {
        #expect(throws: CutError.noSheetOnRoll(width: .millimetres(80))) {
            try CutPlanner.plan(contentHeight: .millimetres(10), policy: .sheet, geometry: Self.receipt)
        }
        #expect(CutError.noSheetOnRoll(width: .millimetres(80)).description.contains("80 mm roll"))
        #expect(throws: CutError.negativeContent(Length(hundredthsOfMillimetre: -1))) {
            try CutPlanner.plan(contentHeight: Length(hundredthsOfMillimetre: -1), policy: .afterContent(), geometry: Self.receipt)
        }
        #expect(throws: CutError.tooManyPieces(needed: 1334, limit: 1000)) {
            try CutPlanner.plan(contentHeight: .millimetres(4_000_000), policy: .afterContent(), geometry: Self.receipt)
        }
        let cramped = PageGeometry.preview(width: .millimetres(80), dpi: 203,
                                           margins: Margins(top: .millimetres(15), bottom: .millimetres(15)),
                                           cutLengths: Length.millimetres(25)...Length.millimetres(30))
        #expect(throws: CutError.self) {
            try CutPlanner.plan(contentHeight: .millimetres(10), policy: .afterContent(), geometry: cramped)
        }
    }

    @Test func policiesRoundTripAsJSON() throws {
        for policy: CutPolicy in [.afterContent(), .afterContent(minimum: .millimetres(40)), .fixed(.inches(3.25)), .sheet] {
            let data = try JSONEncoder().encode(policy)
            #expect(try JSONDecoder().decode(CutPolicy.self, from: data) == policy)
        }
    }
}
