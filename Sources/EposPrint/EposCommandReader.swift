import Foundation

/// The body's elements read into commands, each attribute checked against
/// the values Epson's manual lists. The text style carries from one `<text>`
/// to the next, as it does on the printer (Epson's SDK sends attributes
/// alone, `<text align="center"/>`, then the text). What KioskPrint does not
/// draw is refused with its element named, never dropped in silence.
enum EposCommandReader {
    static func read(_ elements: [XMLElementNode]) throws(EposRequestError) -> [EposCommand] {
        var commands: [EposCommand] = []
        var style = EposTextStyle()
        var align = EposAlign.left
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
                throw EposRequestError("<logo> prints a logo stored in an Epson printer's memory, which KioskPrint does not have: "
                    + "send the logo as an <image> instead.")
            case "page":
                throw EposRequestError("<page> (page mode) is not drawn by KioskPrint yet: lay the receipt out in standard mode "
                    + "(<text>, <image>, <barcode>, <symbol> one after another).")
            case "command":
                throw EposRequestError("<command> carries raw ESC/POS bytes, which KioskPrint does not mix into a drawn job: "
                    + "send them to the role's raw port (raw-listen) instead.")
            default:
                throw EposRequestError("<\(element.name)> is not an ePOS-Print element KioskPrint knows.")
            }
        }
        return commands
    }

    static func textStyle(_ read: Attributes, into style: inout EposTextStyle) throws(EposRequestError) {
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

    /// The most dots one image may have: a 576-dot-wide image 14 m long.
    static let maximumImageDots = 64_000_000

    static func image(_ element: XMLElementNode, _ read: Attributes) throws(EposRequestError) -> EposImage {
        guard let width = try read.integer("width", in: 1...65_535), let height = try read.integer("height", in: 1...65_535) else {
            throw EposRequestError("<image> needs width and height (in dots).")
        }
        guard width * height <= maximumImageDots else {
            throw EposRequestError("<image> of \(width) x \(height) dots is larger than KioskPrint draws (\(maximumImageDots / 1_000_000) million dots).")
        }
        if let mode = read["mode"], mode != "mono" {
            throw EposRequestError("<image mode=\"\(mode)\"> is not drawn: send the image as mode=\"mono\" (1 bit a dot).")
        }
        let cleaned = element.text.filter { !$0.isWhitespace }
        guard let bytes = Data(base64Encoded: cleaned) else { throw EposRequestError("<image>'s content is not base64.") }
        let rowBytes = (width + 7) / 8
        // Epson's layout pads each row to whole bytes; Odoo packs the dots without padding (the same when width is a multiple of 8).
        let padded = bytes.count >= rowBytes * height
        guard padded || bytes.count >= (width * height + 7) / 8 else {
            throw EposRequestError("<image> of \(width) x \(height) dots needs \(rowBytes * height) bytes, and has \(bytes.count).")
        }
        var luminance = [UInt8](repeating: 255, count: width * height)
        let raw = [UInt8](bytes)
        for y in 0..<height {
            for x in 0..<width {
                let bit = padded ? y * rowBytes * 8 + x : y * width + x
                if raw[bit >> 3] & (0x80 >> UInt8(bit & 7)) != 0 { luminance[y * width + x] = 0 }
            }
        }
        return EposImage(width: width, height: height, luminance: luminance)
    }

    /// Epson's barcode types and KioskPrint's for each it draws.
    static let barcodeTypes = ["upc_a": "upca", "ean13": "ean13", "jan13": "ean13", "code39": "code39", "itf": "itf",
                               "code128": "code128", "code128_auto": "code128"]

    static func barcode(_ element: XMLElementNode, _ read: Attributes, align: EposAlign) throws(EposRequestError) -> EposBarcode {
        guard let epson = read["type"] else { throw EposRequestError("<barcode> needs a type.") }
        guard let type = barcodeTypes[epson] else {
            throw EposRequestError("<barcode type=\"\(epson)\"> is not drawn by KioskPrint; it draws \(barcodeTypes.keys.sorted().joined(separator: ", ")).")
        }
        var data = element.text
        // Code 128's code-set choice ({A, {B, {C) is the encoder's business here: zint picks the shortest.
        if type == "code128", data.hasPrefix("{"), data.count >= 2 { data = String(data.dropFirst(2)) }
        guard !data.isEmpty else { throw EposRequestError("<barcode> has no data.") }
        let hri = try read.choice("hri", ["none", "above", "below", "both"]) ?? "none"
        return EposBarcode(type: type, data: data, module: try read.integer("width", in: 2...6) ?? 3,
                           height: try read.integer("height", in: 1...255) ?? 162, readable: hri != "none", align: align)
    }

    static let symbolTypes = ["qrcode_model_1": "qr", "qrcode_model_2": "qr", "pdf417_standard": "pdf417",
                              "pdf417_truncated": "pdf417", "azteccode_fullrange": "aztec", "azteccode_compact": "aztec",
                              "datamatrix_square": "datamatrix"]

    static func symbol(_ element: XMLElementNode, _ read: Attributes, align: EposAlign) throws(EposRequestError) -> EposSymbol {
        guard let epson = read["type"] else { throw EposRequestError("<symbol> needs a type.") }
        guard let type = symbolTypes[epson] else {
            throw EposRequestError("<symbol type=\"\(epson)\"> is not drawn by KioskPrint; it draws \(symbolTypes.keys.sorted().joined(separator: ", ")).")
        }
        guard !element.text.isEmpty else { throw EposRequestError("<symbol> has no data.") }
        return EposSymbol(type: type, data: element.text, module: try read.integer("width", in: 1...16) ?? 3, align: align)
    }
}

/// One element's attributes, read with the element named in every problem.
struct Attributes {
    let element: String
    let values: [String: String]

    init(_ element: XMLElementNode) { self.element = element.name; values = element.attributes }

    subscript(name: String) -> String? { values[name] }
    func has(_ name: String) -> Bool { values[name] != nil }

    func integer(_ name: String, in range: ClosedRange<Int>) throws(EposRequestError) -> Int? {
        guard let text = values[name] else { return nil }
        guard let value = Int(text), range.contains(value) else {
            throw EposRequestError("<\(element) \(name)=\"\(text)\"> is not a whole number from \(range.lowerBound) to \(range.upperBound).")
        }
        return value
    }

    func boolean(_ name: String) throws(EposRequestError) -> Bool? {
        guard let text = values[name] else { return nil }
        switch text {
        case "true", "1": return true
        case "false", "0": return false
        default: throw EposRequestError("<\(element) \(name)=\"\(text)\"> is not true or false.")
        }
    }

    func choice(_ name: String, _ choices: [String]) throws(EposRequestError) -> String? {
        guard let text = values[name] else { return nil }
        guard choices.contains(text) else {
            throw EposRequestError("<\(element) \(name)=\"\(text)\"> is not one of \(choices.joined(separator: ", ")).")
        }
        return text
    }

    func align() throws(EposRequestError) -> EposAlign? {
        guard let text = values["align"] else { return nil }
        guard let align = EposAlign(rawValue: text) else {
            throw EposRequestError("<\(element) align=\"\(text)\"> is not left, center or right.")
        }
        return align
    }
}
