import Foundation
import PrintModel

/// What a document is, from its declared format or, for
/// `application/octet-stream`, from its first bytes.
enum DocumentKind {
    static func of(_ document: Data, declared: String, printer: PrinterDescription) throws(IPPRefusal) -> (String, PrinterLanguage?) {
        switch declared {
        case "application/pdf": return ("pdf", nil)
        case "image/jpeg": return ("jpg", nil)
        case "image/png": return ("png", nil)
        case "image/pwg-raster": return ("pwg", nil)
        case "image/urf": return ("urf", nil)
        case "application/octet-stream": break
        default:
            if let language = PrinterLanguage.allCases.first(where: { $0.mimeType == declared }) {
                return (language.facts.fileExtension, language)
            }
        }
        let head = Array(document.prefix(8))
        let detected: String? = if head.starts(with: Array("%PDF".utf8)) { "application/pdf" } else if head.starts(with: [0xFF, 0xD8, 0xFF]) {
            "image/jpeg"
        } else if head.starts(with: [0x89, 0x50, 0x4E, 0x47]) { "image/png" } else if head.starts(with: Array("RaS2".utf8)) {
            "image/pwg-raster"
        } else if head.starts(with: Array("UNIRAST".utf8)) { "image/urf" } else { nil }
        if let detected {
            // A PDF is drawn for any printer (Ghostscript, at its resolution), advertised or not.
            guard printer.documentFormats.contains(detected) || detected == "application/pdf" else {
                throw IPPRefusal(.documentFormatNotSupported, "The document is \(detected), which \(printer.role) does not print: "
                    + "send one of \(printer.documentFormats.joined(separator: ", ")).")
            }
            return detected == "application/pdf" ? ("pdf", nil) : try of(document, declared: detected, printer: printer)
        }
        // Bytes that are no known file go to a raw primary as its own language: what a raw queue sends.
        if let language = printer.capabilities?.rawProfile?.language { return (language.facts.fileExtension, language) }
        throw IPPRefusal(.documentFormatError, "The document is not PDF, JPEG, PNG, PWG raster or URF; send one of "
            + "\(printer.documentFormats.joined(separator: ", ")) with its document-format.")
    }
}
