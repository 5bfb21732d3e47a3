import CZint
public import PrintModel

/// A drawn barcode: one ink byte per dot (255 = ink, 0 = paper), row by row,
/// including the quiet zones a scanner needs around the symbol.
public struct BarcodeBitmap: Sendable, Hashable {
    public let width: Int
    public let height: Int
    /// `width * height` bytes, the layout `RasterPage.inkBuffer()` uses.
    public let ink: [UInt8]
    /// The text a person reads under a linear symbol, as zint formats it
    /// (EAN-13 and UPC-A with their check digit, Code 39 with its stars);
    /// empty for 2D symbols.
    public let humanReadableText: String

    public init(width: Int, height: Int, ink: [UInt8], humanReadableText: String = "") {
        self.width = width; self.height = height; self.ink = ink; self.humanReadableText = humanReadableText
    }

    /// Ink at one dot, 0 or 255.
    public func ink(x: Int, y: Int) -> UInt8 { ink[y * width + x] }

    /// A page holding just this barcode, for previews and tests.
    public func page(resolution: Resolution, format: RasterPage.PixelFormat = .black1) -> RasterPage {
        var page = RasterPage(blankWidth: width, height: height, resolution: resolution, format: format)
        for y in 0..<height { for x in 0..<width where ink[y * width + x] != 0 { page.setInk(255, x: x, y: y) } }
        return page
    }
}

/// Draws barcodes with zint 2.11 into ink bitmaps with whole-dot modules.
///
/// zint's bitmap output draws one module as 2 x `scale` pixels, so
/// `scale = moduleDots / 2` makes every module exactly `moduleDots` dots
/// (scale moves in steps of 0.5, one dot). Human-readable text is never
/// drawn here (see `Barcode.humanReadable`); quiet zones are zint's
/// standard ones (`BARCODE_QUIET_ZONES`): 10 modules beside Code 128, ITF
/// and Code 39, the EAN/UPC margins, 4 modules around QR, and so on.
public enum BarcodeRenderer {
    /// Validates `barcode`, then encodes and draws it.
    public static func render(_ barcode: Barcode) throws(BarcodeError) -> BarcodeBitmap {
        try BarcodeValidation.validate(barcode)
        guard let symbol = ZBarcode_Create() else {
            throw .encoder(barcode.symbology, code: ZINT_ERROR_MEMORY, message: "out of memory")
        }
        defer { ZBarcode_Delete(symbol) }

        symbol.pointee.symbology = zintSymbology(barcode.symbology)
        symbol.pointee.scale = Float(barcode.moduleDots) / 2
        symbol.pointee.show_hrt = 0
        symbol.pointee.output_options |= BARCODE_QUIET_ZONES
        symbol.pointee.input_mode = UNICODE_MODE   // Swift strings are UTF-8
        if !barcode.symbology.isTwoDimensional {
            // zint's height is in modules; a whole number of dots divided by
            // the module keeps the bars a whole number of dots tall.
            let dots = barcode.barHeightDots ?? 50 * barcode.moduleDots
            symbol.pointee.height = Float(dots) / Float(barcode.moduleDots)
        }

        // zint 2.11 reads 8 digits as an EAN-13 to pad, not an EAN-8 with its check digit (checked above): the 7 it computes from.
        let data = barcode.symbology == .ean8 && barcode.data.count == 8 ? String(barcode.data.dropLast()) : barcode.data
        let bytes = Array(data.utf8)
        let status = bytes.withUnsafeBufferPointer { buffer in
            ZBarcode_Encode_and_Buffer(symbol, buffer.baseAddress, Int32(buffer.count), 0)
        }
        // Codes below ZINT_ERROR are warnings (an option zint overrode, say):
        // the symbol is still drawn and valid.
        if status >= ZINT_ERROR {
            throw .encoder(barcode.symbology, code: status, message: errorText(symbol))
        }
        let width = Int(symbol.pointee.bitmap_width), height = Int(symbol.pointee.bitmap_height)
        guard let rgb = symbol.pointee.bitmap, width > 0, height > 0 else {
            throw .encoder(barcode.symbology, code: status, message: "zint drew no bitmap")
        }
        // zint draws black (000000) on white (ffffff), three bytes a pixel:
        // the red byte alone tells ink from paper.
        var ink = [UInt8](repeating: 0, count: width * height)
        for index in 0..<(width * height) where rgb[index * 3] < 128 { ink[index] = 255 }
        let text = barcode.symbology.isTwoDimensional ? "" : humanReadableText(symbol)
        return BarcodeBitmap(width: width, height: height, ink: ink, humanReadableText: text)
    }

    private static func zintSymbology(_ symbology: Barcode.Symbology) -> Int32 {
        switch symbology {
        case .code128: BARCODE_CODE128
        case .ean13: BARCODE_EANX
        case .upca: BARCODE_UPCA
        case .itf: BARCODE_C25INTER
        case .code39: BARCODE_CODE39
        case .ean8: BARCODE_EANX
        case .upce: BARCODE_UPCE
        case .code93: BARCODE_CODE93
        case .codabar: BARCODE_CODABAR
        case .qr: BARCODE_QRCODE
        case .pdf417: BARCODE_PDF417
        case .aztec: BARCODE_AZTEC
        case .datamatrix: BARCODE_DATAMATRIX
        }
    }

    // `errtxt` and `text` are fixed char arrays, which Swift imports as
    // tuples: read them as raw bytes up to the NUL.
    private static func errorText(_ symbol: UnsafeMutablePointer<zint_symbol>) -> String {
        withUnsafeBytes(of: symbol.pointee.errtxt) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }

    private static func humanReadableText(_ symbol: UnsafeMutablePointer<zint_symbol>) -> String {
        withUnsafeBytes(of: symbol.pointee.text) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }
}
