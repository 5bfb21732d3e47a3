import Testing
import PrintModel

/// choosePaper / bestPaper: the media a fixed-size template is printed on.
@Suite struct PaperChooserTests {
    @Test func fourBySixPageOnTheLabelPrinterTakesTheLabel() throws {
        let choice = try PaperChooser.choose(.inches(4, 6), for: SimulatedMedia.label4x6)
        #expect(choice.media == .sheet(SimulatedMedia.label4x6Stock))
        #expect(choice.fit == .exact)
        #expect(choice.isReady)
        #expect(!choice.rotated)
        #expect(choice.pageLength == Length(hundredthsOfMillimetre: 15240))
        #expect(choice.cutPolicy == .sheet)
    }

    @Test func landscapeLabelIsTurnedOnlyWhenAllowed() throws {
        let choice = try PaperChooser.choose(.inches(6, 4), for: SimulatedMedia.label4x6)
        #expect(choice.rotated)
        #expect(choice.fit == .exact)
        #expect(throws: PaperError.self) {
            try PaperChooser.choose(.inches(6, 4), for: SimulatedMedia.label4x6, allowRotation: false)
        }
    }

    @Test func officeSizesMatchExactly() throws {
        let a4 = try PaperChooser.choose(.millimetres(210, 297), for: SimulatedMedia.documentA4)
        #expect(a4.media == .sheet(SimulatedMedia.a4))
        #expect(a4.fit == .exact)
        let letter = try PaperChooser.choose(.inches(8.5, 11), for: SimulatedMedia.documentA4)
        #expect(letter.media == .sheet(SimulatedMedia.letter))
        #expect(letter.fit == .exact)
        #expect(!letter.isReady, "Letter is supported but A4 is loaded; A4 cannot hold a Letter page")
    }

    @Test func fourBySixOnTheOfficePrinterTakesTheLoadedA4() throws {
        let choice = try PaperChooser.choose(.inches(4, 6), for: SimulatedMedia.documentA4)
        #expect(choice.media == .sheet(SimulatedMedia.a4))
        #expect(choice.fit == .printableArea)
        #expect(choice.isReady)
    }

    @Test func withBothLoadedTheSmallerSheetWins() throws {
        var office = SimulatedMedia.documentA4
        office.readyMedia = ["iso_a4_210x297mm", "na_letter_8.5x11in"]
        // Letter is 603.2 cm², A4 623.7 cm².
        let choice = try PaperChooser.choose(.inches(4, 6), for: office)
        #expect(choice.media == .sheet(SimulatedMedia.letter))
        // Nothing loaded (the printer does not say): the same rule without readiness.
        office.readyMedia = []
        #expect(try PaperChooser.choose(.inches(4, 6), for: office).media == .sheet(SimulatedMedia.letter))
    }

    @Test func loadedMediaIsPreferredOverAnExactButUnloadedSize() throws {
        let fourByEight = SheetMedia(width: .inches(4), length: .inches(8), source: "main")
        let printer = PrinterCapabilities(name: "Labels", resolutions: SimulatedMedia.dpi203,
                                          sheets: [SimulatedMedia.label4x6Stock, fourByEight],
                                          readyMedia: ["101.6 x 203.2 mm"])
        let choice = try PaperChooser.choose(.inches(4, 6), for: printer)
        #expect(choice.media == .sheet(fourByEight))
        #expect(choice.isReady)
        #expect(choice.fit == .printableArea)
    }

    @Test func boardingPassOnOfficePaperIsTurnedToKeepItInsideTheMargins() throws {
        // 203.2 mm across does not fit A4's 201.54 mm printable width; turned, it does.
        let choice = try PaperChooser.choose(.inches(8, 3.25), for: SimulatedMedia.documentA4)
        #expect(choice.media == .sheet(SimulatedMedia.a4))
        #expect(choice.rotated)
        #expect(choice.fit == .printableArea)
    }

    @Test func rollsFitByWidthAndCutRange() throws {
        let narrow = try PaperChooser.choose(.millimetres(72, 100), for: SimulatedMedia.receipt80mm)
        #expect(narrow.media == .roll(SimulatedMedia.roll80))
        #expect(narrow.pageLength == .millimetres(100))
        #expect(narrow.fit == .printableArea)
        #expect(narrow.isReady)
        #expect(narrow.cutPolicy == .fixed(.millimetres(100)))

        // 80 x 20 mm: turned, it fits inside the printable 72 mm, cut at 80 mm.
        let stub = try PaperChooser.choose(.millimetres(80, 20), for: SimulatedMedia.receipt80mm)
        #expect(stub.rotated)
        #expect(stub.pageLength == .millimetres(80))
        #expect(stub.fit == .printableArea)
        // Not turned: shorter than the shortest cut, so cut at 25 mm; 80 mm across runs into the side margins.
        let upright = try PaperChooser.choose(.millimetres(80, 20), for: SimulatedMedia.receipt80mm, allowRotation: false)
        #expect(upright.pageLength == .millimetres(25))
        #expect(upright.fit == .media)
        #expect(!upright.rotated)

        let geometry = narrow.geometry(resolution: Resolution(203))
        let plan = try CutPlanner.plan(contentHeight: .millimetres(90), policy: narrow.cutPolicy, geometry: geometry)
        #expect(plan.pieces.map(\.yDimension) == [10000])
    }

    @Test func tooLongForTheRollDoesNotFit() {
        #expect(throws: PaperError.self) {
            try PaperChooser.choose(.millimetres(58, 1500), for: SimulatedMedia.receipt58mm)
        }
    }

    @Test func nothingFitsListsWhatThePrinterHas() throws {
        #expect(throws: PaperError.noFit(wanted: .inches(8, 10), available: ["na_index-4x6_4x6in (101.6 x 152.4 mm)"])) {
            try PaperChooser.choose(.inches(8, 10), for: SimulatedMedia.label4x6)
        }
        let error = PaperError.noFit(wanted: .inches(8, 3.25), available: ["80 mm roll (cut 25 to 3000 mm)"])
        #expect(throws: error) { try PaperChooser.choose(.inches(8, 3.25), for: SimulatedMedia.receipt80mm) }
        #expect(error.description.contains("203.2 x 82.6 mm page"))
        #expect(error.description.contains("The printer has: 80 mm roll (cut 25 to 3000 mm)."))
        #expect(error.description.contains("send the job to another printer"))

        let office = PaperError.noFit(wanted: .millimetres(297, 420), available: [])
        #expect(throws: PaperError.noFit(wanted: .millimetres(297, 420),
                                         available: ["iso_a4_210x297mm (210 x 297 mm)", "na_letter_8.5x11in (215.9 x 279.4 mm)"])) {
            try PaperChooser.choose(.millimetres(297, 420), for: SimulatedMedia.documentA4)
        }
        #expect(office.description.contains("reported no paper sizes"))
    }

    @Test func nearlyTheSameSizeCountsAsTheSame() throws {
        let metricLabel = SheetMedia(width: .millimetres(100), length: .millimetres(150))
        let choice = try PaperChooser.choose(.inches(4, 6), sheets: [metricLabel])
        #expect(choice.fit == .exact)
        #expect(PaperChooser.sameSizeTolerance == .millimetres(2.5))
        #expect(throws: PaperError.self) {
            try PaperChooser.choose(.inches(8.5, 11), sheets: [SimulatedMedia.a4], allowRotation: false)
        }
    }
}
