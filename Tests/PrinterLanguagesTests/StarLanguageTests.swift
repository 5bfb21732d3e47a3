import PrinterLanguages
import PrintModel
import Testing

/// Star's three languages, byte for byte on small jobs, against the bytes
/// Star's specifications give (STAR Line Mode Command Specifications Rev
/// 1.12, Star Graphic Mode Rev 2.32's command list, StarPRNT's ESC GS S).
/// The simulator (RawSimulatorTests) reads whole receipts back dot for dot.
@Suite struct StarLanguageTests {
    static func profile(_ model: String) throws -> RawProfile { try ModelCatalog.entry(named: model).profile }

    /// One dot at the left of the first row, a white row under it.
    static let dotAndWhiteRow = MonoBitmap(picture: ["#...............", "................"])!

    @Test func starGraphicIsRasterModeCutByFormFeed() throws {
        let bytes = try StarGraphicLanguage(profile: Self.profile("TSP143")).encode(RawJob(pieces: [Self.dotAndWhiteRow], cut: .partial))
        let expected: [[UInt8]] = [
            [0x1B, 0x40],  // ESC @
            [0x1B, 0x2A, 0x72, 0x52], [0x1B, 0x2A, 0x72, 0x41],  // ESC * r R, ESC * r A
            [0x1B, 0x2A, 0x72, 0x51, 0x30, 0x00], [0x1B, 0x2A, 0x72, 0x50, 0x30, 0x00],  // Q 0, P 0
            [0x1B, 0x2A, 0x72, 0x46, 0x31, 0x33, 0x00], [0x1B, 0x2A, 0x72, 0x45, 0x31, 0x00],  // F 13 (partial), E 1
            [0x62, 0x01, 0x00, 0x80],  // b 1 0: the row, its white byte left off
            [0x1B, 0x2A, 0x72, 0x59, 0x31, 0x00],  // ESC * r Y 1: the white row fed
            [0x1B, 0x0C, 0x00],  // ESC FF NUL: print, feed to the cutter, cut
            [0x1B, 0x2A, 0x72, 0x42],  // ESC * r B
            [0x17],  // ETB: the counter moves once all of it has printed
        ]
        #expect(bytes == expected.flatMap { $0 })
    }

    @Test func starLineIsRasterPerPieceThenTheLineModeCut() throws {
        let language = StarLineLanguage(profile: try Self.profile("TSP654"))
        let bytes = try language.encode(RawJob(pieces: [Self.dotAndWhiteRow], cut: .full, drawerKick: DrawerKick(pin: .pin2)))
        let expected: [[UInt8]] = [
            [0x1B, 0x40], [0x1B, 0x07, 0x05, 0x32],  // ESC @, ESC BEL 50 ms on, 500 ms off
            [0x1B, 0x2A, 0x72, 0x52], [0x1B, 0x2A, 0x72, 0x41],
            [0x1B, 0x2A, 0x72, 0x51, 0x30, 0x00], [0x1B, 0x2A, 0x72, 0x50, 0x30, 0x00], [0x1B, 0x2A, 0x72, 0x45, 0x31, 0x00],
            [0x62, 0x01, 0x00, 0x80], [0x1B, 0x2A, 0x72, 0x59, 0x31, 0x00],
            [0x1B, 0x2A, 0x72, 0x42],  // back to line mode
            [0x1B, 0x64, 0x02],  // ESC d 2: the TSP654 cuts partially only, so...
            [0x07],  // BEL: device 1
            [0x17],  // ETB
        ]
        // ...a full cut asked of a partial-only cutter is the partial ESC d 3.
        var wanted = expected.flatMap { $0 }
        wanted[wanted.count - 3] = 0x03
        #expect(bytes == wanted)
    }

    @Test func starPRNTIsRasterBlocksAsWideAsTheirInkThenTheCut() throws {
        let bytes = try StarPRNTLanguage(profile: Self.profile("mC-Print3")).encode(RawJob(pieces: [Self.dotAndWhiteRow], cut: .partial))
        let expected: [[UInt8]] = [
            [0x1B, 0x40],
            [0x1B, 0x1D, 0x53, 0x01, 0x01, 0x00, 0x01, 0x00, 0x00, 0x80],  // ESC GS S 1, x 1 byte, y 1 row, n 0: the inked row
            [0x1B, 0x1D, 0x53, 0x01, 0x01, 0x00, 0x01, 0x00, 0x00, 0x00],  // the white row, one byte wide
            [0x1B, 0x64, 0x03],  // ESC d 3: feed to the cutter, partial cut
            [0x17],  // ETB
        ]
        #expect(bytes == expected.flatMap { $0 })
    }

    @Test func longWhiteRunsCostLittleInEveryStarLanguage() throws {
        var tall = MonoBitmap(width: 576, height: 2500)
        tall.setInk(true, x: 0, y: 0)
        tall.setInk(true, x: 575, y: 2499)
        let job = RawJob(pieces: [tall], cut: .partial)
        let graphic = try StarGraphicLanguage(profile: Self.profile("TSP143")).encode(job)
        #expect(graphic.count < 200, "\(graphic.count) bytes for a 2500-row piece with two dots")
        #expect(String(decoding: graphic, as: UTF8.self).contains("\u{1B}*rY1000\0\u{1B}*rY1000\0\u{1B}*rY498\0"))
        let prnt = try StarPRNTLanguage(profile: Self.profile("mC-Print3")).encode(job)
        #expect(prnt.count < 2498 + 200, "white rows are one byte each: \(prnt.count) bytes")
        #expect(prnt.count < 2500 * 72 / 10, "a tenth of full-width raster at most")
    }

    @Test func theDrawerAloneAndItsRefusals() throws {
        let language = StarGraphicLanguage(profile: try Self.profile("TSP143"))
        #expect(try language.drawerKick(DrawerKick(pin: .pin5, onMilliseconds: 200, offMilliseconds: 200))
                == [0x1B, 0x40, 0x1B, 0x07, 0x14, 0x14, 0x1A])
        #expect(throws: RawJobError.drawerPulseOutOfRange(onMilliseconds: 2000, offMilliseconds: 200, allowed: 10...1270,
                                                           language: .starGraphic)) {
            try language.drawerKick(DrawerKick(pin: .pin2, onMilliseconds: 2000, offMilliseconds: 200))
        }
        let error = #expect(throws: RawJobError.self) {
            try language.encode(RawJob(pieces: [Self.dotAndWhiteRow], cut: .partial, processID: ProcessID(counter: 1)))
        }
        #expect(error == .noProcessID(printer: "Star TSP143"))
        #expect(RawJobError.drawerPulseOutOfRange(onMilliseconds: 2000, offMilliseconds: 200, allowed: 10...1270, language: .starGraphic)
                    .description.contains("Star Graphic allows 10 to 1270 ms"))
    }

    @Test func theAutomaticStatusReadsAsStarsAppendixSaysAndIsFoundInAStream() throws {
        // Header 1 0x23: 9 bytes. Paper end and off line, as a TSP100 out of paper answers.
        let answer: [UInt8] = [0x23, 0x86, 0x08, 0x00, 0x00, 0x08, 0x00, 0x00, 0x00]
        #expect(StarAutomaticStatus.length(header: 0x23) == 9 && StarAutomaticStatus.length(header: 0x0F) == 7
                && StarAutomaticStatus.length(header: 0x2F) == 15)
        #expect(StarAutomaticStatus.first(in: Array(answer.prefix(8))) == nil, "a partial answer waits for more")
        let found = try #require(StarAutomaticStatus.first(in: [0x11] + answer + [0x23]))  // an XON before, the next header after
        #expect(found.end == 10)
        #expect(found.status.paperEnd && found.status.offline && !found.status.coverOpen)
        let language = StarPRNTLanguage(profile: try Self.profile("mPOP"))
        #expect(language.statusRequest == [0x1B, 0x06, 0x01])
        #expect(language.statusAnswerLength(in: [0x11] + answer) == 10)
        let status = try language.status(from: [0x11] + answer)
        #expect(status.reasons.map(\.keyword) == ["media-empty"], "\(status.reasons)")
        #expect(status.drawerOpen == false)
        let refused = #expect(throws: StatusAnswerError.self) { try language.status(from: [0x12, 0x12, 0x12, 0x12]) }
        #expect(refused?.description.contains("Star's automatic status") == true)
    }

    /// Byte 8 carries the ETB counter in bits 1-3 and 5-6: 0x6E is 31, 0x22 is 9.
    @Test func theETBCounterIsReadFromByteEight() throws {
        let language = StarGraphicLanguage(profile: try Self.profile("TSP143"))
        let escpos = EscPosLanguage(profile: try Self.profile("TM-T20III"))
        #expect(language.keepsPrintedCount && !escpos.keepsPrintedCount)
        #expect(language.printedCount(in: [0x23, 0x06, 0, 0, 0, 0, 0, 0x6E, 0]) == 31)
        #expect(language.printedCount(in: [0x23, 0x06, 0, 0, 0, 0, 0, 0x22, 0]) == 9)
        #expect(language.printedCount(in: [0x23, 0x06, 0, 0]) == nil, "no whole answer, no count")
    }
}
