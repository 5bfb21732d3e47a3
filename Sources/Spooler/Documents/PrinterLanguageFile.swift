public import Foundation
public import PrintModel

/// Printer-language bytes a job carries instead of a template or a PDF:
/// the ZPL a carrier's label service produced, the ESC/POS a POS program
/// wrote. They are checked for size and that they look like the language,
/// never interpreted: the printer is the only judge of its own language.
public enum PrinterLanguageFile {
    /// Larger files are refused (10 MB): a day of labels, not an archive.
    public static let maximumSize = 10 * 1_048_576

    /// The language a file's name says (`.zpl` is ZPL, `.escpos` ESC/POS:
    /// each language's ending); `.bin` and `.prn` need the language given.
    public static func language(ofFile path: String, given: PrinterLanguage?) -> PrinterLanguage? {
        let ending = (path as NSString).pathExtension.lowercased()
        return ["bin", "prn"].contains(ending) ? given : PrinterLanguage(fileExtension: ending)
    }

    /// The file's bytes, checked: not empty, not too large, and in the language's shape.
    public static func read(path: String, language: PrinterLanguage) throws(DeliveryError) -> Data {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
              attributes[.type] as? FileAttributeType == .typeRegular else {
            throw .unreadableFile(path: path, reason: "it is not a regular file that exists")
        }
        guard (attributes[.size] as? Int ?? 0) <= maximumSize else {
            throw .unreadableFile(path: path, reason: "it is larger than \(maximumSize / 1_048_576) MB")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .unreadableFile(path: path, reason: "it cannot be read (check its permissions)")
        }
        guard !data.isEmpty else { throw .unreadableFile(path: path, reason: "it is empty") }
        if language == .zpl {
            // Every ZPL label format starts with ^XA (or a control command ~); anything else is not ZPL.
            let head = String(decoding: data.prefix(4096), as: UTF8.self)
            guard head.contains("^XA") || head.trimmingCharacters(in: .whitespacesAndNewlines).hasPrefix("~") else {
                throw .unreadableFile(path: path, reason: "it is not ZPL: no label format (^XA) in its first 4 KB")
            }
        }
        return data
    }
}
