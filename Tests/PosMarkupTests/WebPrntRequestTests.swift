import Foundation
import PosMarkup
import PrinterLanguages
import Templates
import Testing

/// Star WebPRNT requests read as StarWebPrintTrader sends them, and the
/// answers read back the way the Trader reads them.
@Suite struct WebPrntRequestTests {
    /// The Trader's envelope: `<root>` escaped as the text of `<Request>`.
    static func envelope(_ request: String, root: String = "<root>") -> Data {
        let inner = (root + request + "</root>").replacingOccurrences(of: "&", with: "&amp;")
            .replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
        return Data(#"<StarWebPrint xmlns="http://www.star-m.jp" xmlns:i="http://www.w3.org/2001/XMLSchema-instance"><Request>"#
            .utf8) + Data((inner + "</Request></StarWebPrint>").utf8)
    }

    static func texts(_ commands: [ReceiptCommand]) -> [(String, ReceiptTextStyle)] {
        commands.compactMap { if case .text(let text, let style) = $0 { (text, style) } else { nil } }
    }

    @Test func starsEscapesAreUndoneAndTheStyleCarriesOver() throws {
        // As StarWebPrintBuilder writes "Tax   $10.00\n" after <text underline="true"/>, and a width-2 run on the same line.
        let request = try WebPrntRequest.parse(Self.envelope(#"<text underline="true"/><text>Tax\x20\x20$10.00\x0a</text>"#
            + #"<text underline="false"/><alignment position="right"/><text width="2">Total</text><text width="1">\x20</text>"#
            + #"<text>back\\slash\x26\x3c</text>"#))
        let texts = Self.texts(request.commands)
        #expect(texts.map(\.0) == ["Tax  $10.00\n", "Total", " ", "back\\slash&<"])
        #expect(texts[0].1.underline && !texts[1].1.underline, "underline stays on until turned off")
        #expect(texts[1].1.widthScale == 2 && texts[2].1.widthScale == 1)
        #expect(texts[1].1.align == .right, "alignment stays for what follows")
        #expect(request.waitsForPrint)
    }

    @Test func bytesThatAreNotUTF8ReadInTheElementsCodePage() throws {
        let request = try WebPrntRequest.parse(Self.envelope(#"<text codepage="cp1252">Caf\xe9\x0a</text><text>Caf\xc3\xa9</text>"#))
        #expect(Self.texts(request.commands).map(\.0) == ["Café\n", "Café"])
    }

    @Test func initializationResetsTheStyle() throws {
        let request = try WebPrntRequest.parse(Self.envelope(#"<text emphasis="true"/><alignment position="center"/><initialization/><text>x</text>"#))
        let style = try #require(Self.texts(request.commands).first?.1)
        #expect(!style.emphasis && style.align == .left)
    }

    @Test func barcodesSymbolsImagesCutsAndTheDrawerAreRead() throws {
        let bits = Data([0xFF, 0x80, 0x00, 0x80]).base64EncodedString()  // 9 dots a row: rows padded to 2 bytes
        let request = try WebPrntRequest.parse(Self.envelope(#"<alignment position="center"/><barcode symbology="Code128" width="width3" "#
            + #"height="60" hri="false">No.\x204711</barcode><qrcode model="model2" level="level_m" cell="6">https://e.x/1</qrcode>"#
            + #"<pdf417 level="level2" module="3">PDF</pdf417><bitimage width="9" height="2">\#(bits)</bitimage>"#
            + #"<ruledline thickness="double_thick" width="400"/><cutpaper feed="true" type="partial"/><peripheral channel="2" on="100" off="100"/>"#))
        var commands = request.commands[...]
        #expect(commands.popFirst() == .barcode(ReceiptBarcode(type: "code128", data: "No. 4711", module: 3, height: 60, readable: false, align: .center)))
        #expect(commands.popFirst() == .symbol(ReceiptSymbol(type: "qr", data: "https://e.x/1", module: 6, align: .center)))
        #expect(commands.popFirst() == .symbol(ReceiptSymbol(type: "pdf417", data: "PDF", module: 3, align: .center)))
        guard case .image(let image, .center) = commands.popFirst() else { Issue.record("a bit image"); return }
        #expect(image.width == 9 && image.luminance[0...8].allSatisfy { $0 == 0 } && image.luminance[9...17] == [255, 255, 255, 255, 255, 255, 255, 255, 0])
        #expect(commands.popFirst() == .rule(from: 0, to: 400, style: "thick_double"))
        #expect(commands.popFirst() == .cut)
        #expect(commands.popFirst() == .pulse(drawer: 2, milliseconds: 100))
    }

    @Test func anEmptyRequestAsksTheStatusAndAPeripheralAloneOpensTheDrawer() throws {
        #expect(try WebPrntRequest.parse(Self.envelope("")).commands.printsNothing)
        #expect(try WebPrntRequest.parse(Data(#"<StarWebPrint xmlns="http://www.star-m.jp"><Request></Request></StarWebPrint>"#.utf8)).commands.printsNothing)
        #expect(try WebPrntRequest.parse(Self.envelope(#"<peripheral channel="1" on="200" off="200"/>"#)).commands.onlyKicksDrawer)
        let unchecked = try WebPrntRequest.parse(Self.envelope("<text>x</text>", root: #"<root checkedblock="false">"#))
        #expect(!unchecked.waitsForPrint, "checkedblock=\"false\" answers once the data is taken")
        #expect(try WebPrntRequest.parse(Data("<root><text>bare</text></root>".utf8)).commands.count == 1, "a bare <root> is read too")
    }

    @Test(arguments: [
        (#"<logo number="1"/>"#, "<logo> prints a logo stored in a Star printer's memory"),
        (#"<rawdata>G0A=</rawdata>"#, "<rawdata> carries the printer's own command bytes"),
        (#"<barcode symbology="GS1">01234</barcode>"#, #"<barcode symbology="GS1"> is not drawn by KioskPrint; it draws Code128, Code39, Code93, ITF, JAN13, JAN8, NW7, UPCA, UPCE"#),
        (#"<text width="7">x</text>"#, #"<text width="7"> is not a whole number from 1 to 6"#),
        (#"<text>\x4</text>"#, #"<text> has \x not followed by two hexadecimal digits"#),
        (#"<pageMode/>"#, "<pageMode> is not a WebPRNT element KioskPrint knows"),
        (#"<qrcode cell="5"></qrcode>"#, "<qrcode> has no data"),
    ])
    func whatIsNotDrawnIsRefusedWithTheElementNamed(element: String, message: String) {
        #expect { _ = try WebPrntRequest.parse(Self.envelope(element)) } throws: { error in
            (error as? PosMarkupError)?.message.hasPrefix(message) == true
        }
    }

    @Test func otherDocumentsAreRefusedWithWhatToSend() {
        #expect { _ = try WebPrntRequest.parse(Data("<html/>".utf8)) } throws: { error in
            (error as? PosMarkupError)?.message.contains("post <StarWebPrint><Request>") == true
        }
        #expect { _ = try WebPrntRequest.parse(Data([0x3C, 0x72, 0x6F, 0x6F, 0x74, 0xFF, 0x3E])) } throws: { error in
            (error as? PosMarkupError)?.message.contains("not UTF-8") == true
        }
        #expect(ReceiptMarkup.looksLike(Self.envelope("<text>x</text>")))
        #expect(WebPrntRequest.looksLike(Self.envelope("")) && !EposRequest.looksLike(Self.envelope("")))
    }

    /// The Trader's getters: `parseInt(traderStatus.substr(N, 2), 16) & BIT`.
    static func traderSays(_ hex: String, at offset: Int, _ bit: Int) -> Bool {
        let start = hex.index(hex.startIndex, offsetBy: offset)
        return (Int(hex[start ..< hex.index(start, offsetBy: 2)], radix: 16) ?? 0) & bit != 0
    }

    @Test func theStatusReadsAsTheTraderReadsIt() throws {
        let ready = WebPrntResponse(success: true, code: WebPrntResponse.succeeded, status: WebPrntResponse.statusBytes(of: RawPrinterStatus()))
        #expect(ready.statusText == "2386000000000000000000", "Star's example of a ready printer")
        let out = WebPrntResponse.statusBytes(of: RawPrinterStatus(paperEnd: true))
        let hex = WebPrntResponse(success: false, code: WebPrntResponse.offline, status: out).statusText
        #expect(Self.traderSays(hex, at: 10, 8), "isPaperEnd")
        #expect(Self.traderSays(hex, at: 4, 8), "isOffLine: a Star printer out of paper is off line")
        #expect(!Self.traderSays(hex, at: 4, 32), "not isCoverOpen")
        let open = WebPrntResponse(success: false, code: "1100", status: WebPrntResponse.statusBytes(of: RawPrinterStatus(coverOpen: true, paperNearEnd: true)))
        #expect(Self.traderSays(open.statusText, at: 4, 32) && Self.traderSays(open.statusText, at: 10, 4), "isCoverOpen, isPaperNearEnd")
    }

    @Test func theAnswerIsStarsDocumentWithTheRootAsText() throws {
        let xml = WebPrntResponse(success: true, code: "0", status: WebPrntResponse.statusBytes(of: RawPrinterStatus())).xml
        #expect(xml.contains("<Response>&lt;root&gt;&lt;success&gt;true&lt;/success&gt;&lt;code&gt;0&lt;/code&gt;"
            + "&lt;status&gt;2386000000000000000000&lt;/status&gt;&lt;/root&gt;</Response>"))
        #expect(xml.contains(#"<StarWebPrint xmlns="http://www.star-m.jp""#))
    }

    @Test func aRequestDrawsAsMarkupTheTemplateParserTakes() throws {
        let request = try WebPrntRequest.parse(Self.envelope(#"<text emphasis="true">A\x20&amp;\x20B\x0a</text><text width="2">Total</text>"#
            + #"<text width="1">\x20\x20</text><text width="2">$9\x0a</text><cutpaper feed="true"/>"#))
        let source = ReceiptDrawing.source(request.commands, name: "webprnt.xml")
        _ = try TemplateParser.parse(source.text, file: "webprnt.xml")
        #expect(source.text.contains("<row"), "a line of several styles is a row of columns")
    }
}
