import Testing
import PrintModel
import PrinterLanguages

/// ESC/POS jobs, byte for byte, against the command layouts of Epson's
/// ESC/POS Command Reference (ESC @, GS v 0, GS V function B, ESC p, GS ( H).
@Suite struct EscPosEncodingTests {
    static let tmT88VI = ModelCatalog.entries.first { $0.name == "TM-T88VI" }!.profile

    /// 10 dots wide (2 bytes a row, 6 padding bits), 2 rows:
    /// `##........` = C0 00, `#........#` = 80 40.
    static let small = MonoBitmap(picture: ["##........", "#........#"])!

    @Test func onePieceWithAPartialCut() throws {
        let bytes = try EscPosLanguage(profile: Self.tmT88VI).encode(RawJob(pieces: [Self.small], cut: .partial))
        #expect(bytes == [0x1B, 0x40,                                           // ESC @
                          0x1D, 0x76, 0x30, 0x00, 0x02, 0x00, 0x02, 0x00,       // GS v 0, m 0, x = 2 bytes, y = 2 rows
                          0xC0, 0x00, 0x80, 0x40,
                          0x1D, 0x56, 0x42, 0x00])                              // GS V 66 0: feed to the cutter, partial cut
    }

    @Test func tallPiecesGoInBandsAndEveryRowIsSentOnce() throws {
        let tall = MonoBitmap(picture: ["#.", ".#", "##"])!     // 1 byte a row: 80, 40, C0
        let language = EscPosLanguage(profile: Self.tmT88VI, bandRows: 2)
        let bytes = try language.encode(RawJob(pieces: [tall], cut: .none))
        #expect(bytes == [0x1B, 0x40,
                          0x1D, 0x76, 0x30, 0x00, 0x01, 0x00, 0x02, 0x00, 0x80, 0x40,
                          0x1D, 0x76, 0x30, 0x00, 0x01, 0x00, 0x01, 0x00, 0xC0])   // no cut: nothing after the raster
    }

    @Test func bandRowCountsUseBothBytesOfYAndX() throws {
        var wide = MonoBitmap(width: 512, height: 300)          // 64 bytes a row
        for y in 0..<300 { wide.setInk(true, x: 0, y: y); wide.setInk(true, x: 511, y: y) }  // no blank rows: all raster
        let bytes = try EscPosLanguage(profile: Self.tmT88VI).encode(RawJob(pieces: [wide], cut: .full))
        // Band 1: 256 rows (yL 0, yH 1); band 2: 44 rows.
        #expect(Array(bytes[2..<10]) == [0x1D, 0x76, 0x30, 0x00, 64, 0, 0, 1])
        let second = 10 + 64 * 256
        #expect(Array(bytes[second..<(second + 8)]) == [0x1D, 0x76, 0x30, 0x00, 64, 0, 44, 0])
        // The TM-T88VI cuts partially only, so a full cut asked for becomes its partial one.
        #expect(Array(bytes.suffix(4)) == [0x1D, 0x56, 66, 0])
        #expect(bytes.count == 2 + 8 + 64 * 256 + 8 + 64 * 44 + 4)
    }

    @Test func whiteRunsGoAsFeedsInDotsLongAndShort() throws {
        var piece = MonoBitmap(width: 512, height: 620)
        piece.setInk(true, x: 0, y: 0)          // row 0 inked
        piece.setInk(true, x: 0, y: 10)         // rows 1...9: a short white run, fed
        piece.setInk(true, x: 0, y: 619)        // rows 11...618: 608 white rows, fed
        let bytes = try EscPosLanguage(profile: Self.tmT88VI).encode(RawJob(pieces: [piece], cut: .none))
        // Only the first byte of each row holds ink, so the bands are one byte wide.
        var expected: [UInt8] = [0x1B, 0x40, 0x1D, 0x76, 0x30, 0x00, 1, 0, 1, 0, 0x80]
        expected += [0x1D, 0x50, 180, 180]       // GS P: one motion unit = one dot at 180 dpi, once
        expected += [0x1B, 0x4A, 9]              // ESC J: rows 1...9
        expected += [0x1D, 0x76, 0x30, 0x00, 1, 0, 1, 0, 0x80]
        expected += [0x1B, 0x4A, 255, 0x1B, 0x4A, 255, 0x1B, 0x4A, 98]   // ESC J: 608 rows
        expected += [0x1D, 0x76, 0x30, 0x00, 1, 0, 1, 0, 0x80]
        #expect(bytes == expected)
    }

    /// A band is as wide as its widest inked row: the white bytes right of
    /// the ink are not sent, and the dots land where they were.
    @Test func bandsAreOnlyAsWideAsTheirInk() throws {
        var piece = MonoBitmap(width: 512, height: 3)
        piece.setInk(true, x: 3, y: 0)          // byte 0
        piece.setInk(true, x: 8, y: 1)          // byte 1
        piece.setInk(true, x: 20, y: 2)         // byte 2: the band is 3 bytes wide
        let bytes = try EscPosLanguage(profile: Self.tmT88VI).encode(RawJob(pieces: [piece], cut: .none))
        #expect(bytes == [0x1B, 0x40, 0x1D, 0x76, 0x30, 0x00, 3, 0, 3, 0,
                          0x10, 0, 0,  0, 0x80, 0,  0, 0, 0x08])
    }

    @Test func aFullCutOnAPrinterThatMakesOne() throws {
        var profile = Self.tmT88VI
        profile.cutter = .both
        let bytes = try EscPosLanguage(profile: profile).encode(RawJob(pieces: [Self.small], cut: .full))
        #expect(Array(bytes.suffix(4)) == [0x1D, 0x56, 65, 0])
    }

    @Test func copiesRepeatTheRunThenTheDrawerThenTheProcessID() throws {
        let first = MonoBitmap(picture: ["#"])!, second = MonoBitmap(picture: ["."])!
        let job = RawJob(pieces: [first, second], cut: .partial,
                         drawerKick: DrawerKick(pin: .pin5, onMilliseconds: 100, offMilliseconds: 200),
                         copies: 2, processID: ProcessID("0042"))
        let bytes = try EscPosLanguage(profile: Self.tmT88VI).encode(job)
        let piece1: [UInt8] = [0x1D, 0x76, 0x30, 0x00, 0x01, 0x00, 0x01, 0x00, 0x80, 0x1D, 0x56, 0x42, 0x00]
        // The white piece is fed, not sent as raster: GS P (once, 180 dpi), ESC J 1.
        let piece2First: [UInt8] = [0x1D, 0x50, 180, 180, 0x1B, 0x4A, 1, 0x1D, 0x56, 0x42, 0x00]
        let piece2: [UInt8] = [0x1B, 0x4A, 1, 0x1D, 0x56, 0x42, 0x00]
        let drawer: [UInt8] = [0x1B, 0x70, 0x01, 50, 100]          // ESC p, m 1 = pin 5, 2 ms units
        let processID: [UInt8] = [0x1D, 0x28, 0x48, 0x06, 0x00, 0x30, 0x30, 0x30, 0x30, 0x34, 0x32]
        #expect(bytes == [0x1B, 0x40] + piece1 + piece2First + piece1 + piece2 + drawer + processID)
    }

    @Test func drawerKickAloneAndItsLimits() throws {
        let language = EscPosLanguage(profile: Self.tmT88VI)
        #expect(try language.drawerKick(DrawerKick()) == [0x1B, 0x70, 0x00, 25, 250])
        // Odd milliseconds round up to the next 2 ms unit.
        #expect(try language.drawerKick(DrawerKick(pin: .pin2, onMilliseconds: 3, offMilliseconds: 510)) == [0x1B, 0x70, 0x00, 2, 255])
        #expect(throws: RawJobError.drawerPulseOutOfRange(onMilliseconds: 600, offMilliseconds: 100, allowed: 2...510, language: .escpos)) {
            try language.drawerKick(DrawerKick(onMilliseconds: 600, offMilliseconds: 100))
        }
        let vkp = ModelCatalog.entries.first { $0.name == "VKP80III" }!.profile
        let error = #expect(throws: RawJobError.self) { try EscPosLanguage(profile: vkp).drawerKick(DrawerKick()) }
        #expect(error?.description.contains("Custom VKP80III has no cash drawer port") == true)
    }

    @Test func refusals() {
        let language = EscPosLanguage(profile: Self.tmT88VI)
        #expect(throws: RawJobError.nothingToPrint(printer: "Epson TM-T88VI")) { try language.encode(RawJob(pieces: [], cut: .partial)) }
        #expect(throws: RawJobError.nothingToPrint(printer: "Epson TM-T88VI")) {
            try language.encode(RawJob(pieces: [Self.small], cut: .partial, copies: 0))
        }
        let tooWide = MonoBitmap(width: 576, height: 1)
        let error = #expect(throws: RawJobError.self) { try language.encode(RawJob(pieces: [tooWide], cut: .partial)) }
        #expect(error == .pieceTooWide(piece: 0, width: 576, printer: "Epson TM-T88VI", printableDots: 512))
        #expect(error?.description.contains("576 dots wide, but Epson TM-T88VI prints at most 512") == true)
        let citizen = ModelCatalog.entries.first { $0.name == "CT-S310II" }!.profile
        #expect(throws: RawJobError.noProcessID(printer: "Citizen CT-S310II")) {
            try EscPosLanguage(profile: citizen).encode(RawJob(pieces: [Self.small], cut: .partial, processID: ProcessID(counter: 7)))
        }
    }

    @Test func processIDs() {
        #expect(ProcessID("0042")?.bytes == [0x30, 0x30, 0x34, 0x32])
        #expect(ProcessID("42") == nil)
        #expect(ProcessID("00a2") == nil)
        #expect(ProcessID(counter: 7).description == "0007")
        #expect(ProcessID(counter: 123_456).description == "3456")
        #expect(ProcessID(counter: -1).description == "9999")
    }

    @Test func theLanguageComesFromTheProfile() {
        #expect(Self.tmT88VI.commandLanguage.language == .escpos)
        #expect(Self.tmT88VI.commandLanguage is EscPosLanguage)
        #expect(EscPosLanguage(profile: Self.tmT88VI).statusRequest == [0x10, 0x04, 1, 0x10, 0x04, 2, 0x10, 0x04, 3, 0x10, 0x04, 4])
    }
}
