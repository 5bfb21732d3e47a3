import Testing
import PrintModel

/// The page a renderer draws: media width, printable area and resolution, in
/// lengths and in dots.
@Suite struct PageGeometryTests {
    @Test func eightyMillimetreRollAt203Dpi() throws {
        let geometry = try PageGeometry(capabilities: SimulatedMedia.receipt80mm)
        #expect(geometry.resolution == Resolution(203))
        #expect(geometry.isRoll)
        #expect(geometry.cutLengths == Length.millimetres(25)...Length.millimetres(3000))
        #expect(geometry.mediaWidth == .millimetres(80))
        #expect(geometry.printableWidth == .millimetres(72))
        // The raster covers the media at the stated 203 dpi: 639.37 -> 639.
        #expect(geometry.widthInDots == 639)
        // The printable area at the head's 8 dots/mm: 4 mm -> 32, 72 mm -> 576.
        #expect(geometry.printableLeftDots == 32)
        #expect(geometry.printableWidthDots == 576)
        #expect(geometry.printableLeftDots + geometry.printableWidthDots <= geometry.widthInDots)
        #expect(geometry.mediaName == "roll_min_80x25mm")
        #expect(geometry.mediaSource == "main-roll")
    }

    @Test func fiftyEightMillimetreRollAt203Dpi() throws {
        let geometry = try PageGeometry(capabilities: SimulatedMedia.receipt58mm)
        #expect(geometry.widthInDots == 463)
        #expect(geometry.printableLeftDots == 40)
        #expect(geometry.printableWidthDots == 384)
        #expect(geometry.printableWidth == .millimetres(48))
    }

    @Test func printableRectangleOfAPage() throws {
        let geometry = try PageGeometry(capabilities: SimulatedMedia.receipt80mm)
        #expect(geometry.printableRect(pageLength: .millimetres(100))
            == LengthRect(x: .millimetres(4), y: .zero, width: .millimetres(72), height: .millimetres(100)))
        // 100 mm at 203 dpi is 799.2 raster rows; the printable area never leaves the raster.
        #expect(geometry.heightInDots(pageLength: .millimetres(100)) == 799)
        #expect(geometry.printableDots(pageLength: .millimetres(100)) == DotRect(x: 32, y: 0, width: 576, height: 799))
    }

    @Test func officeSheetAt600DpiCountsInInches() throws {
        let geometry = try PageGeometry(capabilities: SimulatedMedia.documentA4)
        #expect(geometry.resolution == Resolution(600))
        #expect(geometry.sheetLength == .millimetres(297), "the loaded A4, not the first-listed size")
        #expect(geometry.widthInDots == 4960)
        // 4.23 mm at 600 dpi is 99.9 dots; 201.54 mm is 4760.8.
        #expect(geometry.printableLeftDots == 99)
        #expect(geometry.printableWidthDots == 4760)
        #expect(geometry.printableDots(pageLength: .millimetres(297)) == DotRect(x: 99, y: 99, width: 4760, height: 6815))
    }

    @Test func explicitMediaAndResolution() throws {
        let geometry = try PageGeometry(capabilities: SimulatedMedia.documentA4, media: .sheet(SimulatedMedia.letter),
                                        resolution: Resolution(300))
        #expect(geometry.sheetLength == .inches(11))
        #expect(geometry.widthInDots == 2550)
        #expect(geometry.mediaName == "na_letter_8.5x11in")
    }

    @Test func labelIsASheet() throws {
        let geometry = try PageGeometry(capabilities: SimulatedMedia.label4x6)
        #expect(!geometry.isRoll)
        #expect(geometry.sheetLength == Length(hundredthsOfMillimetre: 15240))
        #expect(geometry.widthInDots == 812)
        #expect(geometry.printableWidthDots == 812)
        #expect(geometry.printableLeftDots == 0)
    }

    @Test func previewMatchesThePrinter() throws {
        let margins = Margins(left: .millimetres(4), right: .millimetres(4))
        let preview = PageGeometry.preview(width: .millimetres(80), dpi: 203, margins: margins)
        #expect(preview.widthInDots == 639)
        #expect(preview.printableWidthDots == 576)
        #expect(preview.cutLengths == PageGeometry.previewCutLengths)
        #expect(PageGeometry.previewCutLengths == Length.millimetres(25)...Length.millimetres(3000))
        let printer = try PageGeometry(capabilities: SimulatedMedia.receipt80mm)
        #expect(preview.printableDots(pageLength: .millimetres(50)) == printer.printableDots(pageLength: .millimetres(50)))
    }

    @Test func missingResolutionOrMediaIsExplained() {
        var noResolution = SimulatedMedia.receipt80mm
        noResolution.resolutions = Resolutions()
        #expect(throws: GeometryError.noResolution(printer: "KioskPrint Receipt 80mm")) {
            try PageGeometry(capabilities: noResolution)
        }
        var noMedia = SimulatedMedia.receipt80mm
        noMedia.rolls = []
        #expect(throws: GeometryError.noMedia(printer: "KioskPrint Receipt 80mm")) {
            try PageGeometry(capabilities: noMedia)
        }
        #expect(GeometryError.noResolution(printer: "P").description.contains("--dpi 203"))
        #expect(GeometryError.noMedia(printer: "P").description.contains("--width 80mm"))
    }

    @Test("Metric heads count at whole dots per millimetre",
          arguments: [(203, 8), (406, 16), (152, 6), (254, 10), (300, nil), (600, nil), (72, nil), (0, nil)] as [(Int, Int?)])
    func dotPitch(dpi: Int, perMillimetre: Int?) {
        #expect(DotPitch(dpi: dpi).dotsPerMillimetre == perMillimetre)
    }

    @Test func dotPitchCounts() {
        #expect(DotPitch(dpi: 203).dots(.millimetres(72)) == 576)
        #expect(DotPitch(dpi: 203).dots(.millimetres(48)) == 384)
        #expect(DotPitch(dpi: 203).dots(.millimetres(80)) == 640)
        #expect(DotPitch(dpi: 203).dots(Length(hundredthsOfMillimetre: 7210)) == 576, "part dots are dropped")
        #expect(DotPitch(dpi: 300).dots(.inches(1)) == 300)
        #expect(DotPitch(dpi: 203).dots(Length(hundredthsOfMillimetre: -5)) == 0)
    }
}

/// `--width 80mm --dpi 203`: lengths and resolutions as people type them.
@Suite struct MeasureParsingTests {
    @Test("Accepted lengths",
          arguments: [("80mm", 8000), ("58 mm", 5800), ("3.25in", 8255), ("3.25 inches", 8255), ("3.25\"", 8255),
                      ("7.5cm", 7500), (" 80 MM ", 8000), ("72.1mm", 7210), ("0mm", 0), ("4in", 10160), (".5in", 1270)])
    func lengths(text: String, hundredths: Int) throws {
        #expect(try Length(parsing: text) == Length(hundredthsOfMillimetre: hundredths))
    }

    @Test("Refused lengths", arguments: ["80", "mm", "", "-5mm", "1e3mm", "80px", "8.0.0mm", "nanmm", "20m", "100000mm"])
    func refusedLengths(text: String) {
        #expect(throws: MeasureParseError.length(text)) { try Length(parsing: text) }
    }

    @Test func lengthErrorSaysTheAcceptedForms() {
        let message = MeasureParseError.length("80").description
        #expect(message.contains("\"80\""))
        #expect(message.contains("80mm") && message.contains("3.25in"))
    }

    @Test("Accepted resolutions",
          arguments: [("203", 203, 203), ("203dpi", 203, 203), ("300 dpi", 300, 300), ("300x600dpi", 300, 600),
                      (" 600 ", 600, 600)])
    func resolutions(text: String, horizontal: Int, vertical: Int) throws {
        #expect(try Resolution(parsing: text) == Resolution(horizontal, vertical))
    }

    @Test("Refused resolutions", arguments: ["", "0", "abc", "203ppi", "300x", "x300", "-203", "99999", "1x2x3"])
    func refusedResolutions(text: String) {
        #expect(throws: MeasureParseError.resolution(text)) { try Resolution(parsing: text) }
        #expect(MeasureParseError.resolution(text).description.contains("203dpi"))
    }
}
