import Foundation
import Testing
import PrintModel

/// Lengths, resolutions and media: the arithmetic every layout decision rests on.
@Suite struct LengthTests {
    @Test func millimetresAndInchesAreStoredAsHundredthsOfAMillimetre() {
        #expect(Length.millimetres(80).hundredthsOfMillimetre == 8000)
        #expect(Length.millimetres(72.1).hundredthsOfMillimetre == 7210, "72.1 * 100 is 7209.999..., rounded")
        #expect(Length.millimetres(0.005).hundredthsOfMillimetre == 1, "half a hundredth rounds away from zero")
        #expect(Length.inches(4).hundredthsOfMillimetre == 10160)
        #expect(Length.inches(8.5).hundredthsOfMillimetre == 21590)
        #expect(Length.inches(1) == .millimetres(25.4))
        #expect(Length(hundredthsOfMillimetre: 7210).millimetres == 72.1)
        #expect(Length.zero.hundredthsOfMillimetre == 0)
    }

    @Test func arithmeticAndOrder() {
        #expect(Length.millimetres(80) - .millimetres(4) - .millimetres(4) == .millimetres(72))
        #expect(Length.millimetres(25) + .millimetres(0.5) == Length(hundredthsOfMillimetre: 2550))
        #expect(Length.millimetres(58) < .millimetres(80))
        #expect(!(Length.millimetres(80) < .millimetres(80)))
        #expect([Length.millimetres(80), .millimetres(58), .inches(4)].sorted() == [.millimetres(58), .millimetres(80), .inches(4)])
    }

    @Test("Whole dots, rounded down: a printer cannot print part of a dot",
          arguments: [(8000, 203, 639), (7200, 203, 575), (5800, 203, 463), (4800, 203, 383),
                      (10160, 203, 812), (21000, 300, 2480), (2540, 600, 600), (0, 203, 0)])
    func dots(hundredths: Int, dpi: Int, expected: Int) {
        #expect(Length(hundredthsOfMillimetre: hundredths).dots(at: dpi) == expected)
    }

    @Test("Millimetres to one decimal, without a trailing .0",
          arguments: [(8000, "80"), (7210, "72.1"), (7205, "72.1"), (7204, "72"), (7995, "80"), (7950, "79.5"),
                      (10160, "101.6"), (15240, "152.4"), (29700, "297"), (5, "0.1"), (4, "0"), (0, "0")])
    func millimetreFigure(hundredths: Int, figure: String) {
        let length = Length(hundredthsOfMillimetre: hundredths)
        #expect(length.millimetreFigure == figure)
        #expect(length.description == "\(figure) mm")
    }

    @Test func encodesAsABareNumberOfHundredths() throws {
        let encoded = try JSONEncoder().encode(Length.millimetres(80))
        #expect(String(decoding: encoded, as: UTF8.self) == "8000")
        #expect(try JSONDecoder().decode(Length.self, from: Data("7210".utf8)) == .millimetres(72.1))
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Length.self, from: Data("\"80 mm\"".utf8)) }
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Length.self, from: Data("{\"hundredthsOfMillimetre\":1}".utf8)) }
    }

    @Test func mediaInsideARecordEncodeAsNumbersToo() throws {
        let roll = RollMedia(width: .millimetres(80), cutLengths: .millimetres(25) ... .millimetres(3000),
                             margins: Margins(left: .millimetres(4), right: .millimetres(4)))
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json = String(decoding: try encoder.encode(roll), as: UTF8.self)
        #expect(json == #"{"cutLengths":[2500,300000],"margins":{"bottom":0,"left":400,"right":400,"top":0},"width":8000}"#)
        #expect(try JSONDecoder().decode(RollMedia.self, from: Data(json.utf8)) == roll)
    }
}

@Suite struct MediaTests {
    @Test func aRollsPrintableWidthIsItsWidthLessBothSideMargins() {
        let roll = RollMedia(width: .millimetres(80), cutLengths: .millimetres(25) ... .millimetres(3000),
                             margins: Margins(top: .millimetres(1), bottom: .millimetres(1),
                                              left: .millimetres(4), right: .millimetres(3)))
        #expect(roll.printableWidth == .millimetres(73))
        #expect(RollMedia(width: .millimetres(58), cutLengths: .zero ... .millimetres(100)).printableWidth == .millimetres(58))
    }

    @Test func aSheetIsNamedByItsPWGNameElseByItsSize() {
        let label = SheetMedia(name: "na_index-4x6_4x6in", width: .inches(4), length: .inches(6))
        #expect(label.label == "na_index-4x6_4x6in")
        #expect(label.dimensions == "101.6 x 152.4 mm")
        let unnamed = SheetMedia(width: .millimetres(210), length: .millimetres(297))
        #expect(unnamed.label == "210 x 297 mm")
    }

    @Test func trimsNameTheirIPPKeyword() {
        #expect(Trim.afterPages.description == "trim-after-pages")
        #expect(Trim.afterJob.rawValue == 63)
        #expect(Trim(rawValue: 11) == .trim)  // 16 is laminate (RFC 8011, libcups ipp.h)
        #expect(Trim(rawValue: 3) == nil, "finishings 3 (none) is not a cut")
    }
}

@Suite struct ResolutionTests {
    @Test func descriptionShowsOneFigureWhenBothDirectionsAgree() {
        #expect(Resolution(203).description == "203 dpi")
        #expect(Resolution(300, 300).description == "300 dpi")
        #expect(Resolution(300, 600).description == "300x600 dpi")
        #expect(Resolution(203) == Resolution(203, 203))
    }

    @Test func orderIsAcrossThenAlong() {
        #expect(Resolution(203) < Resolution(300))
        #expect(Resolution(300, 300) < Resolution(300, 600))
        #expect(Resolution(300, 600) < Resolution(600, 300))
    }

    @Test func nativeIsTheStatedDefaultElseTheLowestOfAny() {
        #expect(Resolutions(pwgRaster: [Resolution(300), Resolution(600)], preferred: Resolution(600)).native
                == Resolution(600), "the printer's default wins even when it is not the lowest")
        #expect(Resolutions(pwgRaster: [Resolution(600)], appleRaster: [Resolution(300)],
                            printer: [Resolution(203, 406), Resolution(400)]).native == Resolution(203, 406))
        #expect(Resolutions(appleRaster: [Resolution(300)]).native == Resolution(300))
        #expect(Resolutions(printer: [Resolution(180)], preferred: nil).native == Resolution(180))
        #expect(Resolutions().native == nil)
    }

    @Test func allIsEveryDistinctResolutionLowestFirst() {
        let resolutions = Resolutions(pwgRaster: [Resolution(600), Resolution(300)], appleRaster: [Resolution(300)],
                                      printer: [Resolution(203)], preferred: Resolution(600))
        #expect(resolutions.all == [Resolution(203), Resolution(300), Resolution(600)])
    }
}
