import Foundation

/// One element of a POS's receipt markup (Epson's ePOS-Print XML, Star's
/// WebPRNT), read into what the drawing needs. Units are the printer's
/// dots, as both makers write them for a 203 dpi head (an 80 mm roll is
/// 576 dots across).
public enum ReceiptCommand: Hashable, Sendable {
    /// `<text>`: characters in the style its attributes set (the style stays
    /// for the text after it, as on the printer); a line ends at LF.
    case text(String, ReceiptTextStyle)
    /// `<feed>`: `line` lines, or `unit` dots.
    case feed(lines: Int?, dots: Int?)
    /// `<image>`: a 1-bit raster, most significant bit first, 1 = black.
    case image(ReceiptImage, align: ReceiptAlign)
    /// `<barcode>`: a linear barcode.
    case barcode(ReceiptBarcode)
    /// `<symbol>`: a 2D symbol.
    case symbol(ReceiptSymbol)
    /// `<hline>`: a horizontal rule from x1 to x2 dots.
    case rule(from: Int, to: Int, style: String)
    /// `<cut>`: the paper is cut here.
    case cut
    /// `<pulse>`: kick the cash drawer (drawer_1: pin 2, drawer_2: pin 5).
    case pulse(drawer: Int, milliseconds: Int)
    /// An element taken that draws nothing (`<sound>`, `<layout>`, Star's `<holdprint>` ...).
    case ignored(String)
}

/// The style `<text>`'s attributes set; each stays until changed.
public struct ReceiptTextStyle: Hashable, Sendable {
    public var font = "font_a"
    public var widthScale = 1
    public var heightScale = 1
    public var emphasis = false
    public var underline = false
    public var reverse = false
    public var align = ReceiptAlign.left
    public var lineSpacing: Int?

    public init() {}
}

public enum ReceiptAlign: String, Hashable, Sendable {
    case left, center, right
}

/// `<image width height>`'s raster.
public struct ReceiptImage: Hashable, Sendable {
    public let width: Int
    public let height: Int
    /// One byte a dot: 0 black, 255 white.
    public let luminance: [UInt8]
}

/// `<barcode type hri width height align>`.
public struct ReceiptBarcode: Hashable, Sendable {
    /// KioskPrint's barcode type (`code128`, `ean13`...).
    public var type: String
    public var data: String
    /// Dots per module, 2 to 6.
    public var module: Int
    /// Bar height in dots.
    public var height: Int
    public var readable: Bool
    public var align: ReceiptAlign

    public init(type: String, data: String, module: Int, height: Int, readable: Bool, align: ReceiptAlign) {
        self.type = type; self.data = data; self.module = module; self.height = height; self.readable = readable; self.align = align
    }
}

/// `<symbol type level width size align>`.
public struct ReceiptSymbol: Hashable, Sendable {
    /// KioskPrint's barcode type (`qr`, `pdf417`, `aztec`, `datamatrix`).
    public var type: String
    public var data: String
    /// Dots per module.
    public var module: Int
    public var align: ReceiptAlign

    public init(type: String, data: String, module: Int, align: ReceiptAlign) {
        self.type = type; self.data = data; self.module = module; self.align = align
    }
}

extension ReceiptImage {
    /// The most dots one image may have: a 576-dot-wide image 14 m long.
    static let maximumDots = 64_000_000

    /// A 1-bit image sent as base64, 1 = black, most significant bit first:
    /// each row padded to whole bytes (Epson's and Star's layout), or the
    /// dots packed without padding (Odoo's), which is the same when the
    /// width is a multiple of 8. `element` names the element in a problem.
    static func monochrome(base64 text: String, width: Int, height: Int, element: String) throws(PosMarkupError) -> ReceiptImage {
        guard width * height <= maximumDots else {
            throw PosMarkupError("<\(element)> of \(width) x \(height) dots is larger than KioskPrint draws (\(maximumDots / 1_000_000) million dots).")
        }
        guard let bytes = Data(base64Encoded: text.filter { !$0.isWhitespace }) else {
            throw PosMarkupError("<\(element)>'s content is not base64.")
        }
        let rowBytes = (width + 7) / 8
        let padded = bytes.count >= rowBytes * height
        guard padded || bytes.count >= (width * height + 7) / 8 else {
            throw PosMarkupError("<\(element)> of \(width) x \(height) dots needs \(rowBytes * height) bytes, and has \(bytes.count).")
        }
        var luminance = [UInt8](repeating: 255, count: width * height)
        let raw = [UInt8](bytes)
        for y in 0..<height {
            for x in 0..<width {
                let bit = padded ? y * rowBytes * 8 + x : y * width + x
                if raw[bit >> 3] & (0x80 >> UInt8(bit & 7)) != 0 { luminance[y * width + x] = 0 }
            }
        }
        return ReceiptImage(width: width, height: height, luminance: luminance)
    }
}

extension Array where Element == ReceiptCommand {
    /// Whether it prints nothing: what an empty request (a status ask) reads as.
    public var printsNothing: Bool { allSatisfy { if case .ignored = $0 { true } else { false } } }
    /// Whether it only kicks the drawer (a POS's "open cash drawer" button).
    public var onlyKicksDrawer: Bool {
        contains { if case .pulse = $0 { true } else { false } }
            && allSatisfy { switch $0 { case .pulse, .ignored: true; default: false } }
    }
}
