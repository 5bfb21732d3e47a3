/// One element of an ePOS-Print XML request (Epson's "ePOS-Print XML User's
/// Manual", chapter "XML for controlling the printer"), read into what the
/// drawing needs. Units are the printer's dots, as Epson writes them for a
/// 203 dpi head (an 80 mm roll is 576 dots across).
public enum EposCommand: Hashable, Sendable {
    /// `<text>`: characters in the style its attributes set (the style stays
    /// for the text after it, as on the printer); a line ends at LF.
    case text(String, EposTextStyle)
    /// `<feed>`: `line` lines, or `unit` dots.
    case feed(lines: Int?, dots: Int?)
    /// `<image>`: a 1-bit raster, most significant bit first, 1 = black.
    case image(EposImage, align: EposAlign)
    /// `<barcode>`: a linear barcode.
    case barcode(EposBarcode)
    /// `<symbol>`: a 2D symbol.
    case symbol(EposSymbol)
    /// `<hline>`: a horizontal rule from x1 to x2 dots.
    case rule(from: Int, to: Int, style: String)
    /// `<cut>`: the paper is cut here.
    case cut
    /// `<pulse>`: kick the cash drawer (drawer_1: pin 2, drawer_2: pin 5).
    case pulse(drawer: Int, milliseconds: Int)
    /// `<sound>`, `<layout>`, `<recovery>`, `<reset>`: taken, nothing to draw.
    case ignored(String)
}

/// The style `<text>`'s attributes set; each stays until changed.
public struct EposTextStyle: Hashable, Sendable {
    public var font = "font_a"
    public var widthScale = 1
    public var heightScale = 1
    public var emphasis = false
    public var underline = false
    public var reverse = false
    public var align = EposAlign.left
    public var lineSpacing: Int?

    public init() {}
}

public enum EposAlign: String, Hashable, Sendable {
    case left, center, right
}

/// `<image width height>`'s raster.
public struct EposImage: Hashable, Sendable {
    public let width: Int
    public let height: Int
    /// One byte a dot: 0 black, 255 white.
    public let luminance: [UInt8]
}

/// `<barcode type hri width height align>`.
public struct EposBarcode: Hashable, Sendable {
    /// KioskPrint's barcode type (`code128`, `ean13`...).
    public var type: String
    public var data: String
    /// Dots per module, 2 to 6.
    public var module: Int
    /// Bar height in dots.
    public var height: Int
    public var readable: Bool
    public var align: EposAlign
}

/// `<symbol type level width size align>`.
public struct EposSymbol: Hashable, Sendable {
    /// KioskPrint's barcode type (`qr`, `pdf417`, `aztec`, `datamatrix`).
    public var type: String
    public var data: String
    /// Dots per module.
    public var module: Int
    public var align: EposAlign
}
