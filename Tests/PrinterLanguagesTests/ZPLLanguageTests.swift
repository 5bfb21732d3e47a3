import Testing
import PrintModel
import PrinterLanguages

/// ZPL II labels, text for text, and `~HS` answers read into the spooler's terms.
@Suite struct ZPLLanguageTests {
    static let zd420 = ModelCatalog.entries.first { $0.name == "ZD420-203dpi" }!.profile

    static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    @Test func oneLabelOnGapMediaTornOff() throws {
        let bitmap = MonoBitmap(picture: ["##........", "#........#"])!    // C0 00 / 80 40
        let bytes = try ZPLLanguage(profile: Self.zd420).encode(RawJob(pieces: [bitmap], cut: .partial))
        // The ZD420 in the catalog has no cutter, so even a cut asked for is a tear-off (^MMT).
        #expect(Self.text(bytes) == "^XA\n^LH0,0\n^PW812\n^LL2\n^MNY\n^MMT\n^FO0,0^GFA,4,4,2,C0,8040^FS\n^PQ1\n^XZ\n")
    }

    @Test func cutterContinuousMediaAndCopiesOfOneLabel() throws {
        var profile = Self.zd420
        profile.cutter = .full
        profile.mediaTracking = .continuous
        let bitmap = MonoBitmap(picture: ["########", "########", "........"])!
        let bytes = try ZPLLanguage(profile: profile).encode(RawJob(pieces: [bitmap], cut: .full, copies: 3))
        #expect(Self.text(bytes) == "^XA\n^LH0,0\n^PW812\n^LL3\n^MNN\n^MMC\n^FO0,0^GFA,3,3,1,!:,^FS\n^PQ3\n^XZ\n")
        profile.mediaTracking = .mark
        #expect(Self.text(try ZPLLanguage(profile: profile).encode(RawJob(pieces: [bitmap], cut: .none))).contains("^MNM\n^MMT\n"))
    }

    @Test func severalLabelsAreCollatedCopyByCopy() throws {
        let a = MonoBitmap(picture: ["#"])!, b = MonoBitmap(picture: ["."])!
        let text = Self.text(try ZPLLanguage(profile: Self.zd420).encode(RawJob(pieces: [a, b], cut: .none, copies: 2)))
        let labels = text.split(separator: "^XZ\n").map { $0.contains("GFA,1,1,1,80^FS") ? "a" : "b" }
        #expect(labels == ["a", "b", "a", "b"])
        #expect(!text.contains("^PQ2") && text.components(separatedBy: "^PQ1\n").count == 5)
    }

    @Test func aLabelLargerThanOneGraphicFieldIsStacked() throws {
        // 4 x 6 in at 203 dpi: 812 dots (102 bytes a row) x 1218 rows = 124236 bytes, over ^GF's 99999.
        var bitmap = MonoBitmap(width: 812, height: 1218)
        for y in 0..<1218 { bitmap.setInk(true, x: y % 812, y: y) }
        let text = Self.text(try ZPLLanguage(profile: Self.zd420).encode(RawJob(pieces: [bitmap], cut: .none)))
        // 99999 / 102 = 980 rows in the first field, 238 in the second.
        #expect(text.contains("^FO0,0^GFA,99960,99960,102,"))
        #expect(text.contains("^FO0,980^GFA,24276,24276,102,"))
        #expect(text.contains("^LL1218\n"))
        // Both fields decode back to the label's rows.
        var decoded: [UInt8] = []
        for field in text.split(separator: "^GFA,").dropFirst() {
            let parts = field.split(separator: ",", maxSplits: 3)
            let data = String(parts[3].prefix { $0 != "^" })
            decoded += try ZPLGraphicDecoder.decode(data, bytesPerRow: Int(parts[2])!, totalBytes: Int(parts[0])!)
        }
        #expect(decoded == bitmap.rows)
    }

    @Test func refusals() {
        let language = ZPLLanguage(profile: Self.zd420)
        let wide = MonoBitmap(width: 813, height: 1)
        #expect(throws: RawJobError.pieceTooWide(piece: 0, width: 813, printer: "Zebra ZD420-203dpi", printableDots: 812)) {
            try language.encode(RawJob(pieces: [wide], cut: .none))
        }
        #expect(throws: RawJobError.pieceTooLong(piece: 0, height: 32_001, printer: "Zebra ZD420-203dpi", limit: 32_000)) {
            try language.encode(RawJob(pieces: [MonoBitmap(width: 8, height: 32_001)], cut: .none))
        }
        let drawer = #expect(throws: RawJobError.self) {
            try language.encode(RawJob(pieces: [MonoBitmap(width: 8, height: 1)], cut: .none, drawerKick: DrawerKick()))
        }
        #expect(drawer?.description == "Zebra ZD420-203dpi has no cash drawer port, so no drawer can be opened through it. "
                    + "Connect the drawer to a receipt printer that has one.")
        #expect(throws: RawJobError.noProcessID(printer: "Zebra ZD420-203dpi")) {
            try language.encode(RawJob(pieces: [MonoBitmap(width: 8, height: 1)], cut: .none, processID: ProcessID("0001")))
        }
        #expect(throws: RawJobError.nothingToPrint(printer: "Zebra ZD420-203dpi")) { try language.encode(RawJob(pieces: [], cut: .none)) }
    }

    // MARK: ~HS

    /// A ~HS answer with the given flags, laid out as Zebra's guide shows it.
    static func answer(paperOut: Int = 0, pause: Int = 0, bufferFull: Int = 0, under: Int = 0, over: Int = 0,
                       headUp: Int = 0, ribbonOut: Int = 0) -> [UInt8] {
        Array(("\u{2}030,\(paperOut),\(pause),1218,000,\(bufferFull),0,0,000,0,\(under),\(over)\u{3}\r\n"
            + "\u{2}001,0,\(headUp),\(ribbonOut),0,2,6,0,00000000,1,000\u{3}\r\n"
            + "\u{2}1234,0\u{3}\r\n").utf8)
    }

    @Test("~HS flags and the reasons they give", arguments: [
        (answer(), [String]()),
        (answer(paperOut: 1), ["media-empty"]),
        (answer(pause: 1), ["paused"]),
        (answer(headUp: 1), ["cover-open"]),
        (answer(ribbonOut: 1), ["marker-supply-empty"]),
        (answer(bufferFull: 1), ["spool-area-full"]),
        (answer(over: 1), ["other"]),
        (answer(under: 1), ["other"]),
        (answer(paperOut: 1, pause: 1, headUp: 1), ["media-empty", "cover-open", "paused"]),
    ])
    func hostStatus(answer: [UInt8], expected: [String]) throws {
        let language = ZPLLanguage(profile: Self.zd420)
        let status = try language.status(from: answer)
        #expect(status.reasons.map(\.keyword) == expected)
        #expect(status.drawerOpen == nil, "ZPL says nothing about a drawer")
        #expect(status.printerState == (status.reasons.contains { $0.needsAttention } ? .stopped : .idle))
    }

    @Test func hostStatusFieldsAndFraming() throws {
        let parsed = try ZPLHostStatus(answer: Self.answer(paperOut: 1))
        #expect(parsed.paperOut && !parsed.paused && !parsed.headUp)
        #expect(parsed.labelLengthDots == 1218 && parsed.formatsInBuffer == 0 && parsed.labelsRemaining == 0)
        #expect(parsed.printMode == "2", "tear-off")
        let language = ZPLLanguage(profile: Self.zd420)
        #expect(language.statusRequest == Array("~HS".utf8))
        let full = Self.answer()
        #expect(language.statusAnswerLength(in: full) == full.count)
        #expect(language.statusAnswerLength(in: Array(full.dropLast(2))) == full.count - 2, "the CR LF may come later")
        #expect(language.statusAnswerLength(in: Array(full.prefix(40))) == nil)
    }

    @Test func malformedAnswersAreRefusedWithWhatWasWrong() {
        let language = ZPLLanguage(profile: Self.zd420)
        let two = #expect(throws: StatusAnswerError.self) { try language.status(from: Array("\u{2}1,0\u{3}\u{2}2\u{3}".utf8)) }
        #expect(two?.description.contains("expected three STX...ETX strings, found 2") == true)
        let short = #expect(throws: StatusAnswerError.self) {
            try language.status(from: Array("\u{2}030,0,0\u{3}\u{2}001\u{3}\u{2}1234,0\u{3}".utf8))
        }
        #expect(short?.description.contains("string 1 has 3 fields, ~HS sends 12") == true)
        var bad = Self.answer()
        bad[5] = UInt8(ascii: "x")     // the paper out flag
        let flag = #expect(throws: StatusAnswerError.self) { try language.status(from: bad) }
        #expect(flag?.description.contains("the paper out flag is \"x\", not 0 or 1") == true)
        #expect(flag?.description.contains("Check that the printer is set to ZPL II") == true)
    }
}
