public import PrintModel

/// The document formats the spooler sends, best first for a kiosk printer.
public enum DocumentFormat: String, Hashable, Sendable, CaseIterable {
    /// PWG raster at the printer's native resolution: exact dots, exact cut.
    case pwgRaster = "image/pwg-raster"
    /// Apple raster, the same pixels for printers that take only AirPrint's format.
    case urf = "image/urf"
    /// PDF, for printers that take neither raster (office printers through a RIP).
    case pdf = "application/pdf"
    /// ESC/POS raster commands, for a raw receipt printer (`GS v 0`, `GS V`).
    case escpos = "application/vnd.escpos"
    /// ZPL II, for a raw label printer (`^GFA` graphics in a label format).
    case zpl = "application/vnd.zebra-zpl"

    /// The command language of a raw format.
    public var language: PrinterLanguage? {
        switch self {
        case .escpos: .escpos
        case .zpl: .zpl
        case .pwgRaster, .urf, .pdf: nil
        }
    }

    /// The first format in our order of preference that `capabilities` lists.
    /// Raster first: the printer prints the dots we drew, at its own
    /// resolution, with nothing between us and the head.
    public static func best(for capabilities: PrinterCapabilities) throws(DeliveryError) -> DocumentFormat {
        let offered = Set(capabilities.documentFormats)
        for format in allCases where offered.contains(format.rawValue) && format.isUsable(on: capabilities) { return format }
        throw .noUsableFormat(printer: capabilities.name, offered: capabilities.documentFormats)
    }

    /// Whether `capabilities` can be sent this format: a raw language only
    /// with the saved model that says how to draw for it.
    func isUsable(on capabilities: PrinterCapabilities) -> Bool {
        guard let language else { return true }
        return capabilities.rawProfile?.language == language
    }
}
