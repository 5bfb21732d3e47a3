public import PrintModel

/// The document formats the spooler sends, best first for a kiosk printer.
public enum DocumentFormat: Hashable, Sendable {
    /// PWG raster at the printer's native resolution: exact dots, exact cut.
    case pwgRaster
    /// Apple raster, the same pixels for printers that take only AirPrint's format.
    case urf
    /// PDF, for printers that take neither raster (office printers through a RIP).
    case pdf
    /// A raw printer's command language (ESC/POS raster commands, ZPL II
    /// `^GFA` graphics), drawn as one bitmap per piece for its encoder.
    case printerLanguage(PrinterLanguage)

    /// Every format, in our order of preference: raster, PDF, then each printer language.
    public static var allCases: [DocumentFormat] {
        [.pwgRaster, .urf, .pdf] + PrinterLanguage.allCases.map(DocumentFormat.printerLanguage)
    }

    /// The MIME type, as IPP's `document-format` names it.
    public var rawValue: String {
        switch self {
        case .pwgRaster: "image/pwg-raster"
        case .urf: "image/urf"
        case .pdf: "application/pdf"
        case .printerLanguage(let language): language.mimeType
        }
    }

    /// The format a MIME type names, when it is one of ours.
    public init?(rawValue: String) {
        guard let format = Self.allCases.first(where: { $0.rawValue == rawValue }) else { return nil }
        self = format
    }

    /// The command language of a raw format.
    public var language: PrinterLanguage? {
        if case .printerLanguage(let language) = self { language } else { nil }
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
