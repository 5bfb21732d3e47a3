import Foundation

/// The body's elements read into commands, each attribute checked against
/// the values Epson's manual lists. The text style carries from one `<text>`
/// to the next, as it does on the printer (Epson's SDK sends attributes
/// alone, `<text align="center"/>`, then the text). What KioskPrint does not
/// draw is refused with its element named, never dropped in silence.
enum EposCommandReader {
    static func read(_ elements: [XMLElementNode]) throws(PosMarkupError) -> [ReceiptCommand] {
        var commands: [ReceiptCommand] = []
        var style = ReceiptTextStyle()
        var align = ReceiptAlign.left
        for element in elements {
            let read = Attributes(element)
            if let value = try read.align() { align = value; style.align = value }
            switch element.name {
            case "text":
                try textStyle(read, into: &style)
                if !element.text.isEmpty { commands.append(.text(element.text, style)) }
            case "feed":
                if read.has("pos") { commands.append(.ignored("feed pos")); continue }
                commands.append(.feed(lines: try read.integer("line", in: 0...255) ?? (read.has("unit") ? nil : 1),
                                      dots: try read.integer("unit", in: 0...255)))
            case "image":
                commands.append(.image(try image(element, read), align: align))
            case "barcode":
                commands.append(.barcode(try barcode(element, read, align: align)))
            case "symbol":
                commands.append(.symbol(try symbol(element, read, align: align)))
            case "hline":
                commands.append(.rule(from: try read.integer("x1", in: 0...65_535) ?? 0, to: try read.integer("x2", in: 0...65_535) ?? 0,
                                      style: read["style"] ?? "thin"))
            case "cut":
                commands.append(.cut)
            case "pulse":
                let drawer = try read.choice("drawer", ["drawer_1", "drawer_2"]) ?? "drawer_1"
                let time = try read.choice("time", ["pulse_100", "pulse_200", "pulse_300", "pulse_400", "pulse_500"]) ?? "pulse_100"
                commands.append(.pulse(drawer: drawer == "drawer_1" ? 1 : 2, milliseconds: Int(time.dropFirst(6)) ?? 100))
            case "sound", "layout", "recovery", "reset", "vline-begin", "vline-end":
                commands.append(.ignored(element.name))
            case "logo":
                throw PosMarkupError("<logo> prints a logo stored in an Epson printer's memory, which KioskPrint does not have: "
                    + "send the logo as an <image> instead.")
            case "page":
                throw PosMarkupError("<page> (page mode) is not drawn by KioskPrint yet: lay the receipt out in standard mode "
                    + "(<text>, <image>, <barcode>, <symbol> one after another).")
            case "command":
                throw PosMarkupError("<command> carries raw ESC/POS bytes, which KioskPrint does not mix into a drawn job: "
                    + "send them to the role's raw port (raw-listen) instead.")
            default:
                throw PosMarkupError("<\(element.name)> is not an ePOS-Print element KioskPrint knows.")
            }
        }
        return commands
    }

    static func textStyle(_ read: Attributes, into style: inout ReceiptTextStyle) throws(PosMarkupError) {
        if let font = try read.choice("font", ["font_a", "font_b", "font_c", "font_d", "font_e", "special_a", "special_b"]) {
            style.font = font
        }
        if let double = try read.boolean("dw") { style.widthScale = double ? 2 : 1 }
        if let double = try read.boolean("dh") { style.heightScale = double ? 2 : 1 }
        if let width = try read.integer("width", in: 1...8) { style.widthScale = width }
        if let height = try read.integer("height", in: 1...8) { style.heightScale = height }
        if let emphasis = try read.boolean("em") { style.emphasis = emphasis }
        if let underline = try read.boolean("ul") { style.underline = underline }
        if let reverse = try read.boolean("reverse") { style.reverse = reverse }
        if let spacing = try read.integer("linespc", in: 0...255) { style.lineSpacing = spacing }
    }

    static func image(_ element: XMLElementNode, _ read: Attributes) throws(PosMarkupError) -> ReceiptImage {
        guard let width = try read.integer("width", in: 1...65_535), let height = try read.integer("height", in: 1...65_535) else {
            throw PosMarkupError("<image> needs width and height (in dots).")
        }
        if let mode = read["mode"], mode != "mono" {
            throw PosMarkupError("<image mode=\"\(mode)\"> is not drawn: send the image as mode=\"mono\" (1 bit a dot).")
        }
        return try ReceiptImage.monochrome(base64: element.text, width: width, height: height, element: "image")
    }

    /// Epson's barcode types and KioskPrint's for each it draws.
    static let barcodeTypes = ["upc_a": "upca", "upc_e": "upce", "ean13": "ean13", "jan13": "ean13", "ean8": "ean8", "jan8": "ean8",
                               "code39": "code39", "code93": "code93", "itf": "itf", "codabar": "codabar",
                               "code128": "code128", "code128_auto": "code128"]

    static func barcode(_ element: XMLElementNode, _ read: Attributes, align: ReceiptAlign) throws(PosMarkupError) -> ReceiptBarcode {
        guard let epson = read["type"] else { throw PosMarkupError("<barcode> needs a type.") }
        guard let type = barcodeTypes[epson] else {
            throw PosMarkupError("<barcode type=\"\(epson)\"> is not drawn by KioskPrint; it draws \(barcodeTypes.keys.sorted().joined(separator: ", ")).")
        }
        var data = element.text
        // Code 128's code-set choice ({A, {B, {C) is the encoder's business here: zint picks the shortest.
        if type == "code128", data.hasPrefix("{"), data.count >= 2 { data = String(data.dropFirst(2)) }
        guard !data.isEmpty else { throw PosMarkupError("<barcode> has no data.") }
        let hri = try read.choice("hri", ["none", "above", "below", "both"]) ?? "none"
        return ReceiptBarcode(type: type, data: data, module: try read.integer("width", in: 2...6) ?? 3,
                           height: try read.integer("height", in: 1...255) ?? 162, readable: hri != "none", align: align)
    }

    static let symbolTypes = ["qrcode_model_1": "qr", "qrcode_model_2": "qr", "pdf417_standard": "pdf417",
                              "pdf417_truncated": "pdf417", "azteccode_fullrange": "aztec", "azteccode_compact": "aztec",
                              "datamatrix_square": "datamatrix"]

    static func symbol(_ element: XMLElementNode, _ read: Attributes, align: ReceiptAlign) throws(PosMarkupError) -> ReceiptSymbol {
        guard let epson = read["type"] else { throw PosMarkupError("<symbol> needs a type.") }
        guard let type = symbolTypes[epson] else {
            throw PosMarkupError("<symbol type=\"\(epson)\"> is not drawn by KioskPrint; it draws \(symbolTypes.keys.sorted().joined(separator: ", ")).")
        }
        guard !element.text.isEmpty else { throw PosMarkupError("<symbol> has no data.") }
        return ReceiptSymbol(type: type, data: element.text, module: try read.integer("width", in: 1...16) ?? 3, align: align)
    }
}
