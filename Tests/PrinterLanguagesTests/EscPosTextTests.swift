import PrinterLanguages
import Simulator
import Testing

/// ESC/POS text in the printer's code pages, byte for byte beside
/// python-escpos 3.1 (PyPI), which nobody here wrote: in each code page
/// alone (its `charcode`), and choosing the page as its `magic` encoder does.
@Suite struct EscPosTextTests {
    /// Epson's order, as the TM-T88IV profile lists them.
    static let tmPages: [EscPosCodePage] = [.pc437, .pc850, .wpc1252, .pc866, .pc858]

    @Test func theBytesPythonEscposGaveByHand() {
        var encoder = EscPosTextEncoder(codePages: Self.tmPages)
        #expect(encoder.encode("Café") == [0x1B, 0x74, 0x00, 0x43, 0x61, 0x66, 0x82])
        #expect(encoder.encode(" €") == [0x20, 0x1B, 0x74, 0x10, 0x80], "the page in use is kept, then WPC1252 for the euro")
        #expect(encoder.current == .wpc1252)
        #expect(encoder.encode("Привет") == [0x1B, 0x74, 0x11, 0x8F, 0xE0, 0xA8, 0xA2, 0xA5, 0xE2], "PC866")
        #expect(encoder.encode("Cafe\u{301}") == [0x43, 0x61, 0x66, 0x1B, 0x74, 0x00, 0x82],
                "ASCII stays in PC866; the accent typed apart is composed first, and PC437 has é")
        let before = encoder.current
        #expect(encoder.encode("価格") == nil, "no page has it: the line goes as raster")
        #expect(encoder.current == before, "a refused text leaves the page as it was")
        #expect(encoder.encode("a\tb") == nil, "control characters are not text")
    }

    static let texts = ["Café au lait 4,50", "naïve façade Größe", "Ærø Ørsted ÅS", "½ price ± 2°", "Привет, мир", "Цена 12,30 руб.", "Total € 12.30", "£5 ¥7"]

    static let charcodes: [EscPosCodePage: String] = [.pc437: "CP437", .pc850: "CP850", .wpc1252: "CP1252", .pc866: "CP866", .pc858: "CP858"]

    /// Every text each page has, alone, and the mixed texts in the TM-T88IV's
    /// order: ours beside python-escpos's, asked of one Python process.
    @Test func eachPageAloneAndThePageChosenBesidePythonEscpos() throws {
        var cases: [(text: String, charcode: String?, ours: [UInt8])] = []
        for page in EscPosCodePage.allCases {
            var encoded = 0
            for text in Self.texts {
                var encoder = EscPosTextEncoder(codePages: [page])
                guard let ours = encoder.encode(text) else { continue }  // the page lacks a character of it
                cases.append((text, Self.charcodes[page], ours))
                encoded += 1
            }
            #expect(encoded >= 2, "\(page) encodes at least two of the texts")
        }
        for text in ["Café", "Café €", "Привет", "Total € 12.30"] {
            var encoder = EscPosTextEncoder(codePages: Self.tmPages)
            let ours = encoder.encode(text)
            cases.append((text, nil, try #require(ours)))
        }
        let theirs = try PythonEscpos.textBytes(cases.map { ($0.text, $0.charcode) })
        for (index, item) in cases.enumerated() {
            #expect(theirs[index] == item.ours, "\(item.charcode ?? "magic"): \(item.text)")
        }
    }
}
