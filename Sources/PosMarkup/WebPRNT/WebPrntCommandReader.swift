import Foundation

/// The `<root>`'s elements read into receipt commands, each attribute
/// checked against the values Star's Request Element reference lists.
/// Like the printer, the style a `<text>` sets (with or without text) and
/// the position `<alignment>` sets stay for what follows, until
/// `<initialization>`. What KioskPrint does not draw is refused with its
/// element named, never dropped in silence.
enum WebPrntCommandReader {
    static func read(_ elements: [XMLElementNode]) throws(PosMarkupError) -> [ReceiptCommand] {
        var commands: [ReceiptCommand] = []
        var style = ReceiptTextStyle()
        for element in elements {
            let read = Attributes(element)
            switch element.name {
            case "initialization":
                style = ReceiptTextStyle()
                commands.append(.ignored(element.name))
            case "alignment":
                let position = try read.choice("position", ["left", "center", "right"]) ?? "left"
                style.align = ReceiptAlign(rawValue: position) ?? .left
            case "text":
                try textStyle(read, into: &style)
                let text = try decoded(element.text, codepage: read["codepage"], element: "text")
                if !text.isEmpty { commands.append(.text(text, style)) }
            case "feed":
                let lines = try read.integer("line", in: 1...255), dots = try read.integer("unit", in: 1...255)
                guard lines != nil || dots != nil else { throw PosMarkupError("<feed> needs line or unit.") }
                commands.append(.feed(lines: lines, dots: dots))
            case "bitimage", "bitImage":
                guard let width = try read.integer("width", in: 1...65_535), let height = try read.integer("height", in: 1...65_535) else {
                    throw PosMarkupError("<bitimage> needs width and height (in dots).")
                }
                let image = try ReceiptImage.monochrome(base64: element.text, width: width, height: height, element: "bitimage")
                commands.append(.image(image, align: style.align))
            case "barcode":
                commands.append(.barcode(try barcode(element, read, align: style.align)))
            case "qrcode":
                _ = try read.choice("model", ["model1", "model2"])
                _ = try read.choice("level", ["level_l", "level_m", "level_q", "level_h"])
                commands.append(.symbol(ReceiptSymbol(type: "qr", data: try data(of: element), module: try read.integer("cell", in: 1...8) ?? 3,
                                                      align: style.align)))
            case "pdf417":
                _ = try read.choice("level", (0...8).map { "level\($0)" })
                commands.append(.symbol(ReceiptSymbol(type: "pdf417", data: try data(of: element),
                                                      module: try read.integer("module", in: 1...8) ?? 2, align: style.align)))
            case "ruledline":
                let thickness = try read.choice("thickness", ["thin", "medium", "thick", "double_thin", "double_medium", "double_thick"]) ?? "thin"
                // Epson's names for the same rules: thin, medium, thick, thin_double ...
                let style = thickness.hasPrefix("double_") ? "\(thickness.dropFirst("double_".count))_double" : thickness
                commands.append(.rule(from: 0, to: try read.integer("width", in: 1...65_535) ?? 0, style: style))
            case "cutpaper":
                _ = try read.boolean("feed")
                _ = try read.choice("type", ["full", "partial"])
                commands.append(.cut)
            case "peripheral":
                let channel = try read.integer("channel", in: 1...2) ?? 1
                commands.append(.pulse(drawer: channel, milliseconds: try read.integer("on", in: 1...65_535) ?? 200))
            case "sound", "sound_with_setting", "holdprint":
                commands.append(.ignored(element.name))
            case "logo":
                throw PosMarkupError("<logo> prints a logo stored in a Star printer's memory, which KioskPrint does not have: "
                    + "send the logo as a <bitimage> instead (StarWebPrintBuilder.createBitImageElement).")
            case "rawdata":
                throw PosMarkupError("<rawdata> carries the printer's own command bytes, which KioskPrint does not mix into a drawn "
                    + "job: use the elements for text, images, barcodes and cuts instead.")
            default:
                throw PosMarkupError("<\(element.name)> is not a WebPRNT element KioskPrint knows.")
            }
        }
        return commands
    }

    static func textStyle(_ read: Attributes, into style: inout ReceiptTextStyle) throws(PosMarkupError) {
        if let font = try read.choice("font", ["font_a", "font_b"]) { style.font = font }
        if let width = try read.integer("width", in: 1...6) { style.widthScale = width }
        if let height = try read.integer("height", in: 1...6) { style.heightScale = height }
        if let emphasis = try read.boolean("emphasis") { style.emphasis = emphasis }
        if let underline = try read.boolean("underline") { style.underline = underline }
        if let invert = try read.boolean("invert") { style.reverse = invert }
        if let spacing = try read.choice("linespace", ["24", "32"]) { style.lineSpacing = Int(spacing) }
        _ = try read.boolean("upperline")
        _ = try read.integer("characterspace", in: 0...7)
    }

    /// Star's barcode symbologies and KioskPrint's for each it draws.
    static let symbologies = ["UPCA": "upca", "UPCE": "upce", "JAN13": "ean13", "JAN8": "ean8", "Code39": "code39", "Code93": "code93",
                              "ITF": "itf", "Code128": "code128", "NW7": "codabar"]

    static func barcode(_ element: XMLElementNode, _ read: Attributes, align: ReceiptAlign) throws(PosMarkupError) -> ReceiptBarcode {
        guard let star = read["symbology"] else { throw PosMarkupError("<barcode> needs a symbology.") }
        guard let type = symbologies[star] else {
            throw PosMarkupError("<barcode symbology=\"\(star)\"> is not drawn by KioskPrint; it draws "
                + "\(symbologies.keys.sorted().joined(separator: ", ")).")
        }
        // width2..width4 are the narrow bar's dots; width_mode1..9 cycle through 2, 3 and 4 dots with wider ratios.
        let width = try read.choice("width", ["width2", "width3", "width4"] + (1...9).map { "width_mode\($0)" }) ?? "width2"
        let module = width.hasPrefix("width_mode") ? [2, 3, 4][((Int(width.dropFirst(10)) ?? 1) - 1) % 3] : Int(width.dropFirst(5)) ?? 2
        return ReceiptBarcode(type: type, data: try data(of: element), module: module,
                              height: try read.integer("height", in: 1...255) ?? 40, readable: try read.boolean("hri") ?? true, align: align)
    }

    static func data(of element: XMLElementNode) throws(PosMarkupError) -> String {
        let data = try decoded(element.text, codepage: nil, element: element.name)
        guard !data.isEmpty else { throw PosMarkupError("<\(element.name)> has no data.") }
        return data
    }

    /// Star's escapes undone: StarWebPrintBuilder writes every control
    /// character, space, `&`, `<`, `>` (and, for binary data, every byte over
    /// 0x7E) as `\xNN`, and a backslash as `\\`. The bytes are UTF-8 when they
    /// read as such, else text in the element's code page.
    static func decoded(_ text: String, codepage: String?, element: String) throws(PosMarkupError) -> String {
        guard text.contains("\\") else { return text }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var utf8 = text.utf8[...]
        while let byte = utf8.popFirst() {
            guard byte == UInt8(ascii: "\\") else { bytes.append(byte); continue }
            switch utf8.first {
            case UInt8(ascii: "\\"):
                utf8.removeFirst()
                bytes.append(byte)
            case UInt8(ascii: "x"), UInt8(ascii: "X"):
                let digits = utf8.dropFirst().prefix(2)
                guard digits.count == 2, let value = UInt8(String(decoding: digits, as: UTF8.self), radix: 16) else {
                    throw PosMarkupError("<\(element)> has \\x not followed by two hexadecimal digits.")
                }
                utf8.removeFirst(3)
                bytes.append(value)
            default:
                bytes.append(byte)  // a lone backslash, as the printer takes it
            }
        }
        if let text = String(validating: bytes, as: UTF8.self) { return text }
        let encoding: String.Encoding = switch codepage {
        case "cp1250": .windowsCP1250
        case "cp1251": .windowsCP1251
        default: .windowsCP1252
        }
        return String(data: Data(bytes), encoding: encoding) ?? String(decoding: bytes, as: UTF8.self)
    }
}
