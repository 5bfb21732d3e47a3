public import PrintModel

/// Why a job cannot be prepared or delivered, in words for the operator:
/// what happened and what to do.
public enum DeliveryError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The template, its data or a file is wrong: the job fails, no retry.
    case badContent(String)
    case unreadableFile(path: String, reason: String)
    case noUsableFormat(printer: String, offered: [String])
    case noMedia(printer: String, detail: String)
    case noPrinter(role: String)
    /// Printer-language bytes for a printer that speaks another language.
    case wrongLanguage(printer: String, language: PrinterLanguage)

    public var description: String {
        switch self {
        case .badContent(let detail): detail
        case .unreadableFile(let path, let reason): "\(path) cannot be printed: \(reason)."
        case .noUsableFormat(let printer, let offered):
            "The printer \"\(printer)\" takes none of PWG raster, Apple raster or PDF (it lists "
                + "\(offered.isEmpty ? "no formats" : offered.joined(separator: ", "))). Choose an IPP Everywhere printer for this role."
        case .noMedia(let printer, let detail): "No paper on \"\(printer)\" fits this job: \(detail)"
        case .wrongLanguage(let printer, let language):
            "The printer \"\(printer)\" does not take \(language.description) (it lists no \(language.mimeType)); "
                + "send these bytes only to a role whose printer speaks \(language.description), or print the job from a template."
        case .noPrinter(let role):
            "No printer holds the role \"\(role)\". Pick one with `kioskprint printers pick --role \(role)`."
        }
    }

    /// True when retrying cannot help: the content itself is wrong.
    public var isPermanent: Bool {
        switch self {
        case .badContent, .unreadableFile, .noUsableFormat, .wrongLanguage: true
        case .noMedia, .noPrinter: false
        }
    }
}
