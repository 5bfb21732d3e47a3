import Testing
import PrintModel
import PrinterLanguages

/// `delivery = "native"` in ESC/POS bytes: a line of text in the printer's
/// font between raster bands, against the command layouts of Epson's
/// reference (ESC J, ESC 3, ESC $, ESC E, GS !, ESC t, LF, GS L), and the
/// lines the encoder refuses rather than print wrongly.
@Suite struct EscPosDeviceTextTests {
    static let tmT20 = ModelCatalog.entries.first { $0.name == "TM-T20III" }!.profile

    /// 576 dots wide, 60 rows: ink on rows 0 and 1 at the left edge, the rest white.
    static func piece() -> MonoBitmap {
        var piece = MonoBitmap(width: 576, height: 60)
        piece.setInk(true, x: 0, y: 0)
        piece.setInk(true, x: 0, y: 1)
        return piece
    }

    @Test func aLineBetweenRasterBandsTakesExactlyItsRows() throws {
        let line = DeviceTextLine(top: 10, height: 30, cellTop: 3, runs: [
            DeviceTextRun(x: 0, text: "Café", bold: true),
            DeviceTextRun(x: 120, text: "2 ×", bold: false, widthScale: 2, heightScale: 1),
        ])
        let bytes = try EscPosLanguage(profile: Self.tmT20).encode(RawJob(pieces: [Self.piece()], cut: .partial, deviceText: [[line]]))
        var expected: [UInt8] = [0x1B, 0x40, 0x1D, 0x76, 0x30, 0x00, 1, 0, 2, 0, 0x80, 0x80]   // ESC @, rows 0-1 as raster
        expected += [0x1D, 0x50, 203, 203, 0x1B, 0x4A, 11]     // GS P, ESC J to the cells' top (row 13)
        expected += [0x1B, 0x33, 27]                           // ESC 3: the 27 rows left to the line
        expected += [0x1B, 0x45, 1]                            // ESC E 1 (no ESC $: the line starts at the margin)
        expected += [0x1B, 0x74, 0x00, 0x43, 0x61, 0x66, 0x82] // ESC t 0 (PC437), "Café"
        expected += [0x1B, 0x24, 120, 0, 0x1B, 0x45, 0]        // ESC $ 120, ESC E 0
        expected += [0x1D, 0x21, 0x10]                         // GS !: twice as wide, once as tall
        expected += [0x32, 0x20, 0x1B, 0x74, 0x02, 0x9E]       // "2 ", ESC t 2 (PC850) "×"
        expected += [0x0A]                                     // LF: 27 rows, to row 40
        expected += [0x1B, 0x4A, 20, 0x1D, 0x56, 66, 0]        // ESC J: rows 40-59, the cut
        #expect(bytes == expected)
    }

    @Test func aCentredBandGoesFromItsInkWithTheMarginMovedThenBackForText() throws {
        var piece = MonoBitmap(width: 576, height: 40)
        for y in 0..<8 { piece.setInk(true, x: 200, y: y) }   // byte 25, 8 rows
        let line = DeviceTextLine(top: 8, height: 32, cellTop: 0, runs: [DeviceTextRun(x: 24, text: "OK", bold: false)])
        let bytes = try EscPosLanguage(profile: Self.tmT20).encode(RawJob(pieces: [piece], cut: .none, deviceText: [[line]]))
        var expected: [UInt8] = [0x1B, 0x40, 0x1D, 0x50, 203, 203, 0x1D, 0x4C, 200, 0]   // GS L 200: the band's ink starts there
        expected += [0x1D, 0x76, 0x30, 0x00, 1, 0, 8, 0] + [UInt8](repeating: 0x80, count: 8)
        expected += [0x1D, 0x4C, 0, 0]                        // GS L 0 before the text line
        expected += [0x1B, 0x33, 32, 0x1B, 0x24, 24, 0, 0x1B, 0x74, 0x00, 0x4F, 0x4B, 0x0A]
        #expect(bytes == expected)
    }

    @Test func linesThatWouldNotPrintWhereTheySayAreRefused() throws {
        let language = EscPosLanguage(profile: Self.tmT20)
        func encode(_ line: DeviceTextLine) throws(RawJobError) -> [UInt8] {
            try language.encode(RawJob(pieces: [Self.piece()], cut: .none, deviceText: [[line]]))
        }
        func refusal(_ line: DeviceTextLine) -> String? {
            do { _ = try encode(line); return nil } catch { return error.description }
        }
        #expect(refusal(DeviceTextLine(top: 0, height: 30, cellTop: 0, runs: [DeviceTextRun(x: 0, text: "A", bold: false)]))?
            .contains("the drawing has ink on its rows") == true)
        #expect(refusal(DeviceTextLine(top: 10, height: 20, cellTop: 0, runs: [DeviceTextRun(x: 0, text: "A", bold: false)]))?
            .contains("do not hold its characters' cells") == true)
        #expect(refusal(DeviceTextLine(top: 10, height: 30, cellTop: 0, runs: [DeviceTextRun(x: 570, text: "AB", bold: false)]))?
            .contains("passes the 576 printable dots") == true)
        #expect(refusal(DeviceTextLine(top: 10, height: 30, cellTop: 0, runs: [DeviceTextRun(x: 0, text: "価格", bold: false)]))?
            .contains("none of its code pages has") == true)
        #expect(refusal(DeviceTextLine(top: 50, height: 30, cellTop: 0, runs: [DeviceTextRun(x: 0, text: "A", bold: false)]))?
            .contains("runs past the piece's 60 rows") == true)
        let error = refusal(DeviceTextLine(top: 10, height: 30, cellTop: 0, runs: [DeviceTextRun(x: 0, text: "A", bold: false,
                                                                                                widthScale: 9)]))
        #expect(error?.contains("a magnification of 9 x 1") == true && error?.contains("set the role's delivery to \"raster\"") == true)
    }

    @Test func starAndZPLTakeNoTextForTheirFont() throws {
        let line = DeviceTextLine(top: 10, height: 30, cellTop: 0, runs: [DeviceTextRun(x: 0, text: "A", bold: false)])
        for model in ["TSP143", "mC-Print3", "ZD420-203dpi"] {
            let profile = try ModelCatalog.profile(model: model)
            #expect(profile.commandLanguage.deviceTextOptions == nil)
            #expect(throws: RawJobError.noDeviceText(printer: profile.makeAndModel, language: profile.language)) {
                try profile.commandLanguage.encode(RawJob(pieces: [Self.piece()], cut: .none, deviceText: [[line]]))
            }
        }
    }

    @Test func fontAIsKnownAt180And203DotsPerInchOnly() throws {
        #expect(try ModelCatalog.profile(model: "TM-T88VI").commandLanguage.deviceTextOptions?.font == .escPosFontA)
        var odd = Self.tmT20
        odd.dpi = 300
        #expect(odd.commandLanguage.deviceTextOptions == nil)
    }
}
