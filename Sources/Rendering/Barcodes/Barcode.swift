/// One barcode to draw, in printer dots: what `BarcodeRenderer` needs and
/// nothing else.
///
/// Rendering keeps its own type rather than taking `Templates.BarcodeBlock`
/// so that it stays independent of the markup layer (Rendering also serves
/// previews and raw jobs with no template); the layout step maps a block's
/// symbology, data, module and height (converted to dots) onto this.
public struct Barcode: Sendable, Hashable {
    /// The symbologies KioskPrint prints, named like `BarcodeBlock.Symbology`.
    public enum Symbology: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
        case code128, ean13, upca, itf = "interleaved2of5", code39, ean8, upce, code93, codabar, qr, pdf417, aztec, datamatrix

        /// Matrix and stacked symbols: every module is square (PDF417's rows
        /// are a whole number of modules tall), and no bar height applies.
        public var isTwoDimensional: Bool {
            switch self {
            case .qr, .pdf417, .aztec, .datamatrix: true
            case .code128, .ean13, .upca, .itf, .code39, .ean8, .upce, .code93, .codabar: false
            }
        }

        /// The name a person reads in an error message.
        public var description: String {
            switch self {
            case .code128: "Code 128"
            case .ean13: "EAN-13"
            case .upca: "UPC-A"
            case .itf: "Interleaved 2 of 5"
            case .code39: "Code 39"
            case .ean8: "EAN-8"
            case .upce: "UPC-E"
            case .code93: "Code 93"
            case .codabar: "Codabar"
            case .qr: "QR Code"
            case .pdf417: "PDF417"
            case .aztec: "Aztec"
            case .datamatrix: "Data Matrix"
            }
        }
    }

    public var symbology: Symbology
    public var data: String
    /// Dots per module (the X dimension). A whole number: on a 203 dpi
    /// thermal head a fractional module makes bars of uneven width and
    /// scanners fail.
    public var moduleDots: Int
    /// Height of the bars of a linear symbol in dots; nil for zint's default
    /// of 50 modules. Ignored for 2D symbols, whose size follows from the data.
    public var barHeightDots: Int?
    /// Whether the layout should print the human-readable text below.
    /// `BarcodeRenderer` never draws it: zint's bitmap font is coarse at
    /// 203 dpi, so the text renderer draws it with the page's own fonts.
    public var humanReadable: Bool

    public init(_ symbology: Symbology, data: String, moduleDots: Int, barHeightDots: Int? = nil,
                humanReadable: Bool = false) {
        self.symbology = symbology
        self.data = data
        self.moduleDots = moduleDots
        self.barHeightDots = barHeightDots
        self.humanReadable = humanReadable
    }
}
