import IPP
import PrintModel
import Testing

/// `PrinterCapabilities(ippAttributes:txt:)` on synthetic attributes: the
/// cases real printers rarely show on demand.
@Suite("Mapping printer attributes")
struct MappingTests {
    private func mm100(_ value: Int) -> Length { Length(hundredthsOfMillimetre: value) }

    private func mediaCol(x: IPPValue, y: IPPValue, margins: (Int, Int, Int, Int)? = nil,
                          source: String? = nil, type: String? = nil, name: String? = nil) -> [IPPAttribute] {
        var members: [IPPAttribute] = [
            .collection("media-size", [
                IPPAttribute(name: "x-dimension", syntax: x.range == nil ? .integer : .rangeOfInteger, values: [x]),
                IPPAttribute(name: "y-dimension", syntax: y.range == nil ? .integer : .rangeOfInteger, values: [y]),
            ]),
        ]
        if let (top, bottom, left, right) = margins {
            members += [.integer("media-top-margin", top), .integer("media-bottom-margin", bottom),
                        .integer("media-left-margin", left), .integer("media-right-margin", right)]
        }
        if let source { members.append(.keyword("media-source", source)) }
        if let type { members.append(.keyword("media-type", type)) }
        if let name { members.append(.keyword("media-size-name", name)) }
        return members
    }

    @Test("State reasons lose their -report/-warning/-error suffix; none is dropped")
    func stateReasons() {
        let capabilities = PrinterCapabilities(ippAttributes: [
            .enumeration("printer-state", 5),
            .keyword("printer-state-reasons", "media-empty-error", "cover-open-warning", "toner-low-report",
                     "none", "media-empty-error", "paused"),
            .text("printer-state-message", "Out of paper."),
        ])
        #expect(capabilities.state == .stopped)
        #expect(capabilities.stateReasons == [
            StateReason(keyword: "media-empty", severity: .error),
            StateReason(keyword: "cover-open", severity: .warning),
            StateReason(keyword: "toner-low", severity: .report),
            StateReason(keyword: "paused"),
        ])
        #expect(capabilities.attentionReasons.map(\.keyword) == ["media-empty", "cover-open", "paused"])
        #expect(capabilities.stateMessage == "Out of paper.")

        let onlyNone = PrinterCapabilities(ippAttributes: [.keyword("printer-state-reasons", "none")])
        #expect(onlyNone.stateReasons.isEmpty)
    }

    @Test("No attributes at all: neutral values, no crash")
    func empty() {
        let capabilities = PrinterCapabilities(ippAttributes: [])
        #expect(capabilities.name == "")
        #expect(capabilities.state == .idle)
        #expect(capabilities.kinds.isEmpty)
        #expect(capabilities.kindsSource == .inferred)
        #expect(capabilities.rolls.isEmpty && capabilities.sheets.isEmpty && capabilities.readyMedia.isEmpty)
        #expect(capabilities.resolutions == Resolutions())
        #expect(capabilities.copies == 1...1)
        #expect(capabilities.uuid == nil && capabilities.adminURL == nil)
    }

    @Test("The TXT record fills what the reply lacks")
    func txtFallback() {
        let txt = TXTRecord(strings: ["ty=Acme TM-1", "note=Till 3", "UUID=urn:uuid:ABC-1", "pdl=image/urf",
                                      "URF=W8,RS180-360", "adminurl=http://10.0.0.9/", "kind=receipt"])
        let capabilities = PrinterCapabilities(ippAttributes: [], txt: txt)
        #expect(capabilities.makeAndModel == "Acme TM-1")
        #expect(capabilities.name == "Acme TM-1")
        #expect(capabilities.location == "Till 3")
        #expect(capabilities.uuid == "ABC-1")
        #expect(capabilities.documentFormats == ["image/urf"])
        #expect(capabilities.resolutions.appleRaster == [Resolution(180), Resolution(360)])
        #expect(capabilities.adminURL == "http://10.0.0.9/")
        #expect(capabilities.kinds == [.receipt] && capabilities.kindsSource == .dnssd)

        let answered = PrinterCapabilities(ippAttributes: [
            .keyword("printer-kind", "label"), IPPAttribute(name: "printer-uuid", syntax: .uri,
                                                            values: [.string("urn:uuid:0000-1111")]),
            IPPAttribute(name: "printer-more-info", syntax: .uri, values: [.string("https://printer/")]),
        ], txt: txt)
        #expect(answered.kinds == [.label] && answered.kindsSource == .printer)
        #expect(answered.uuid == "0000-1111")
        #expect(answered.adminURL == "https://printer/")
    }

    @Test("Attributes of unexpected syntaxes are ignored, never trapped on")
    func wrongTypes() {
        let capabilities = PrinterCapabilities(ippAttributes: [
            .integer("printer-name", 42),
            .keyword("printer-state", "idle"),
            .integer("printer-kind", 1),
            .keyword("copies-supported", "many"),
            .keyword("finishings-supported", "trim"),
            .integer("pwg-raster-document-resolution-supported", 300),
            .keyword("color-supported", "true"),
            .integer("media-col-database", 7),
            .collection("media-col-database", [.keyword("x-dimension", "wide")], [.integer("media-size", 3)]),
            .collection("media-size-supported", [.keyword("x-dimension", "a"), .keyword("y-dimension", "b")]),
            .collection("media-col-ready", [.collection("media-size", [.integer("x-dimension", -5),
                                                                       .integer("y-dimension", 0)])]),
            IPPAttribute(name: "copies-supported", syntax: .rangeOfInteger, values: [.outOfBand(.unknown)]),
            IPPAttribute(name: "printer-state-reasons", syntax: .noValue, values: [.outOfBand(.noValue)]),
        ])
        #expect(capabilities.name == "")
        #expect(capabilities.state == .idle)
        #expect(capabilities.kindsSource == .inferred)
        #expect(capabilities.copies == 1...1)
        #expect(capabilities.trims.isEmpty)
        #expect(capabilities.resolutions.pwgRaster.isEmpty)
        #expect(!capabilities.color)
        #expect(capabilities.rolls.isEmpty && capabilities.sheets.isEmpty && capabilities.readyMedia.isEmpty)
        #expect(capabilities.stateReasons.isEmpty)
    }

    @Test("A printer that answers nonsense is not believed: 0 dpi, a 40 m roll and margins wider than the paper are left out and named")
    func implausibleFiguresAreLeftOutAndNamed() {
        let capabilities = PrinterCapabilities(ippAttributes: [
            .text("printer-name", "Liar"),
            .resolution("pwg-raster-document-resolution-supported", IPPResolution(horizontal: 0, vertical: 0),
                        IPPResolution(horizontal: 203, vertical: 203)),
            .resolution("printer-resolution-default", IPPResolution(horizontal: 0, vertical: 0)),
            .collection("media-col-database",
                        mediaCol(x: .integer(4_000_000), y: .range(2500...300000), source: "main-roll"),
                        mediaCol(x: .integer(10160), y: .integer(15240), margins: (0, 0, 6000, 6000), name: "na_index-4x6_4x6in"),
                        mediaCol(x: .integer(8000), y: .range(2500...300000), margins: (0, 0, 400, 400), source: "main-roll")),
        ])
        #expect(capabilities.resolutions.native == Resolution(203), "the 0 dpi default is not the printer's resolution")
        #expect(capabilities.rolls.map(\.width) == [mm100(8000)])
        #expect(capabilities.sheets.isEmpty)
        let problems = capabilities.implausible ?? []
        #expect(problems.contains("a resolution of 0 dpi (outside 72 to 4800 dpi)"))
        #expect(problems.contains { $0.hasPrefix("a 40000 mm roll") })
        #expect(problems.contains { $0.contains("101.6 x 152.4 mm with margins that leave nothing to print on") })
    }

    @Test("Copies 20000-30000 (found by the fuzzer: the clamp made a range that ended below its start)")
    func copiesBeyondTheLimitAreClampedToARange() {
        let capabilities = PrinterCapabilities(ippAttributes: [.range("copies-supported", 20_000...30_000)])
        #expect(capabilities.copies == 10_000...10_000)
        #expect(capabilities.implausible == ["copies 20000 to 30000"])
    }

    @Test("A printer that makes sense has nothing left out")
    func plausibleFiguresAreKept() {
        let capabilities = PrinterCapabilities(ippAttributes: [
            .resolution("pwg-raster-document-resolution-supported", IPPResolution(horizontal: 203, vertical: 203)),
            .collection("media-col-database",
                        mediaCol(x: .integer(8000), y: .range(2500...300000), margins: (0, 0, 400, 400), source: "main-roll")),
        ])
        #expect(capabilities.implausible == nil)
        #expect(capabilities.rolls.count == 1 && capabilities.resolutions.native == Resolution(203))
    }

    @Test("The first of two same-named attributes wins (ippeveprinter repeats some)")
    func duplicates() {
        let capabilities = PrinterCapabilities(ippAttributes: [
            .text("printer-location", "Front counter"), .text("printer-location", ""),
            IPPAttribute(name: "document-format-supported", syntax: .mimeMediaType,
                         values: [.string("application/pdf")]),
            IPPAttribute(name: "document-format-supported", syntax: .mimeMediaType,
                         values: [.string("image/urf")]),
        ])
        #expect(capabilities.location == "Front counter")
        #expect(capabilities.documentFormats == ["application/pdf"])
    }

    @Test("urf-supported RS entries", arguments: [
        (["V1.4", "W8", "RS300-600", "DM1"], [300, 600]),
        (["RS203"], [203]),
        (["rs360"], [360]),
        (["RS300-abc-600", "RS999"], [300, 600]),
        (["RSabc"], []),
        (["W8", "SRGB24"], []),
        (["RS", "RS-"], []),
    ])
    func urf(urf: [String], dpi: [Int]) {
        let attribute = IPPAttribute(name: "urf-supported", syntax: .keyword, values: urf.map(IPPValue.string))
        #expect(PrinterCapabilities(ippAttributes: [attribute]).resolutions.appleRaster == dpi.map { Resolution($0) })
    }

    @Test("Resolutions in dots per centimetre become dpi; the default is preferred")
    func resolutions() {
        let capabilities = PrinterCapabilities(ippAttributes: [
            .resolution("pwg-raster-document-resolution-supported",
                        IPPResolution(horizontal: 118, vertical: 118, unit: .dotsPerCentimetre),
                        IPPResolution(horizontal: 600, vertical: 600)),
            .resolution("printer-resolution-supported", IPPResolution(horizontal: 300, vertical: 600)),
            .resolution("printer-resolution-default", IPPResolution(horizontal: 80, vertical: 80,
                                                                    unit: .dotsPerCentimetre)),
        ])
        #expect(capabilities.resolutions.pwgRaster == [Resolution(300), Resolution(600)])
        #expect(capabilities.resolutions.printer == [Resolution(300, 600)])
        #expect(capabilities.resolutions.preferred == Resolution(203))
    }

    @Test("A custom_min/custom_max pair of one width is a roll; kinds are inferred from it")
    func customRangeRoll() {
        let capabilities = PrinterCapabilities(ippAttributes: [
            .keyword("media-supported", "custom_min_58x20mm", "custom_max_58x1000mm"),
            .integer("media-left-margin-supported", 500, 300),
            .integer("media-right-margin-supported", 500),
        ])
        #expect(capabilities.rolls == [RollMedia(width: mm100(5800), cutLengths: mm100(2000)...mm100(100000),
                                                 margins: Margins(left: mm100(300), right: mm100(500)),
                                                 name: "custom_min_58x20mm")])
        #expect(capabilities.sheets.isEmpty)
        #expect(capabilities.kinds == [.roll, .receipt])
        #expect(capabilities.kindsSource == .inferred)
    }

    @Test("A roll_min/roll_max pair is a roll even across widths: the widest fits")
    func rollRangeNames() {
        let capabilities = PrinterCapabilities(ippAttributes: [
            .keyword("media-supported", "roll_max_80x3000mm", "roll_min_58x25mm"),
            .keyword("media-source-supported", "main-roll"),
        ])
        #expect(capabilities.rolls == [RollMedia(width: mm100(8000), cutLengths: mm100(2500)...mm100(300000),
                                                 source: "main-roll", name: "roll_min_58x25mm")])
        #expect(capabilities.sheets.isEmpty)
    }

    @Test("A sheet printer's custom size range is not a roll")
    func customRangeSheets() {
        let capabilities = PrinterCapabilities(ippAttributes: [
            .keyword("media-supported", "na_letter_8.5x11in", "custom_min_3x5in", "custom_max_8.5x14in"),
            .keyword("media-source-supported", "tray-1", "manual"),
        ])
        #expect(capabilities.rolls.isEmpty)
        #expect(capabilities.sheets == [SheetMedia(name: "na_letter_8.5x11in", width: mm100(21590),
                                                   length: mm100(27940))])
        #expect(capabilities.kinds == [.document])
    }

    @Test("A custom pair names the roll the database already reported, without a second roll")
    func customRangeNamesRoll() {
        let capabilities = PrinterCapabilities(ippAttributes: [
            .collection("media-col-database", mediaCol(x: .integer(8000), y: .range(2500...300000),
                                                       margins: (0, 0, 400, 400), source: "main-roll")),
            .keyword("media-supported", "custom_min_80x25mm", "custom_max_80x3000mm"),
        ])
        #expect(capabilities.rolls.count == 1)
        #expect(capabilities.rolls.first?.name == "custom_min_80x25mm")
        #expect(capabilities.rolls.first?.margins.left == mm100(400))
    }

    @Test("media-col-database: integer x is a sheet, range y a roll, a range of widths on a roll source the widest")
    func database() {
        let capabilities = PrinterCapabilities(ippAttributes: [
            .collection("media-col-database",
                        mediaCol(x: .integer(10160), y: .integer(15240), margins: (100, 100, 0, 0),
                                 source: "main", type: "labels"),
                        mediaCol(x: .integer(10160), y: .integer(15240), margins: (100, 100, 0, 0),
                                 source: "main", type: "labels"),
                        mediaCol(x: .range(2540...10800), y: .range(2540...50000), source: "main-roll"),
                        mediaCol(x: .range(7620...21590), y: .range(12700...35560), source: "manual"),
                        mediaCol(x: .integer(5800), y: .range(2000...100000), source: "by-pass-tray",
                                 name: "roll_current_58x1000mm")),
            .keyword("media-supported", "na_index-4x6_4x6in"),
            .integer("media-top-margin-supported", 300),
        ])
        #expect(capabilities.sheets == [SheetMedia(name: "na_index-4x6_4x6in", width: mm100(10160),
                                                   length: mm100(15240),
                                                   margins: Margins(top: mm100(100), bottom: mm100(100)),
                                                   source: "main", type: "labels")])
        #expect(capabilities.rolls == [
            RollMedia(width: mm100(10800), cutLengths: mm100(2540)...mm100(50000),
                      margins: Margins(top: mm100(300)), source: "main-roll"),
            RollMedia(width: mm100(5800), cutLengths: mm100(2000)...mm100(100000),
                      margins: Margins(top: mm100(300)), source: "by-pass-tray", name: "roll_current_58x1000mm"),
        ])
        #expect(capabilities.kinds == [.label, .roll, .receipt])
    }

    @Test("Without a database: media-size-supported with the smallest printer-wide margins")
    func sizeSupportedFallback() {
        let capabilities = PrinterCapabilities(ippAttributes: [
            .collection("media-size-supported",
                        [.integer("x-dimension", 21000), .integer("y-dimension", 29700)],
                        [.integer("x-dimension", 8000), .range("y-dimension", 2500...300000)]),
            .keyword("media-supported", "iso_a4_210x297mm"),
            .integer("media-left-margin-supported", 423, 0),
            .integer("media-right-margin-supported", 423, 0),
            .integer("media-top-margin-supported", 423),
            .integer("media-bottom-margin-supported", 423),
        ])
        let margins = Margins(top: mm100(423), bottom: mm100(423), left: .zero, right: .zero)
        #expect(capabilities.sheets == [SheetMedia(name: "iso_a4_210x297mm", width: mm100(21000),
                                                   length: mm100(29700), margins: margins)])
        #expect(capabilities.rolls == [RollMedia(width: mm100(8000), cutLengths: mm100(2500)...mm100(300000),
                                                 margins: margins)])
    }

    @Test("Ready media: size names, matching media-supported names, roll descriptions; else media-ready")
    func readyMedia() {
        let fromCol = PrinterCapabilities(ippAttributes: [
            .collection("media-col-ready",
                        mediaCol(x: .integer(21000), y: .integer(29700)),
                        mediaCol(x: .integer(10000), y: .integer(15000)),
                        mediaCol(x: .integer(8000), y: .range(2500...300000), source: "main-roll"),
                        mediaCol(x: .integer(10160), y: .integer(15240), name: "na_index-4x6_4x6in")),
            .keyword("media-supported", "iso_a4_210x297mm"),
            .keyword("media-ready", "na_letter_8.5x11in"),
        ])
        #expect(fromCol.readyMedia == ["iso_a4_210x297mm", "100 x 150 mm", "80 mm roll", "na_index-4x6_4x6in"])

        let fromKeywords = PrinterCapabilities(ippAttributes: [.keyword("media-ready", "na_letter_8.5x11in", "")])
        #expect(fromKeywords.readyMedia == ["na_letter_8.5x11in"])
    }

    @Test("Trims, colour, duplex, copies")
    func finishingsAndFeatures() {
        let capabilities = PrinterCapabilities(ippAttributes: [
            .enumeration("finishings-supported", 3, 11, 60, 63, 60, 4),
            .keyword("print-color-mode-supported", "monochrome", "color"),
            .keyword("sides-supported", "one-sided", "two-sided-short-edge"),
            .range("copies-supported", 1...999),
        ])
        #expect(capabilities.trims == [.trim, .afterPages, .afterJob])
        #expect(capabilities.color)
        #expect(capabilities.duplex)
        #expect(capabilities.copies == 1...999)
        #expect(PrinterCapabilities(ippAttributes: [.integer("copies-supported", 5)]).copies == 1...5)
        #expect(PrinterCapabilities(ippAttributes: [.boolean("color-supported", true)]).color)
    }

    @Test("printer-kind with only unknown words falls through to inference")
    func unknownKinds() {
        let capabilities = PrinterCapabilities(ippAttributes: [
            .keyword("printer-kind", "disc", "3d"),
            .keyword("media-supported", "iso_a4_210x297mm"),
        ])
        #expect(capabilities.kinds == [.document])
        #expect(capabilities.kindsSource == .inferred)
    }

    @Test("PWG self-describing names", arguments: [
        ("iso_a4_210x297mm", 21000, 29700), ("na_index-4x6_4x6in", 10160, 15240),
        ("na_letter_8.5x11in", 21590, 27940), ("custom_min_80x25mm", 8000, 2500),
        ("roll_max_80x3000mm", 8000, 300000),
    ])
    func pwgNames(name: String, width: Int, length: Int) throws {
        let size = try #require(PWGMediaSize(name))
        #expect(size.width == mm100(width) && size.length == mm100(length))
    }

    @Test("Names that describe no size", arguments: ["na_letter", "iso_a4_x297mm", "a_bxcmm", "x_0x0mm", "", "_"])
    func pwgNonNames(name: String) {
        #expect(PWGMediaSize(name) == nil)
    }
}
