public import Foundation
public import Rendering
public import PosMarkup

/// A file given to `print --file`, checked before it is accepted (Apple's
/// `canPrintURL`): a PDF that is whole and not encrypted, a PNG or JPEG
/// that decodes, or PWG raster or URF whose pages read. Anything else is refused with the reason, and nothing is queued.
public enum PrinterReadyFile {
    public enum Content: Sendable {
        case pdf(Data)
        case image([UInt8], name: String)
        /// A PWG raster or URF document: pages a client drew.
        case raster([RasterDocument.Page], name: String)
        /// A POS's receipt markup (an ePOS-Print or WebPRNT request a web POS sent the role).
        case receipt([ReceiptCommand], name: String)
    }

    /// Files larger than this (50 MB) are refused: a kiosk prints tickets, not books.
    public static let maximumSize = 50 * 1_048_576

    public static func check(path: String) throws(DeliveryError) -> Content {
        let url = URL(fileURLWithPath: path)
        let values = try? url.resourceValues(forKeys: [.isRegularFileKey, .fileSizeKey, .isSymbolicLinkKey])
        guard FileManager.default.fileExists(atPath: path) else { throw .unreadableFile(path: path, reason: "it does not exist") }
        guard values?.isRegularFile == true else { throw .unreadableFile(path: path, reason: "it is not a regular file") }
        guard (values?.fileSize ?? 0) <= maximumSize else {
            throw .unreadableFile(path: path, reason: "it is larger than \(maximumSize / 1_048_576) MB")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .unreadableFile(path: path, reason: "it cannot be read (check its permissions)")
        }
        if data.starts(with: Data("%PDF-".utf8)) {
            try checkPDF(data, path: path)
            return .pdf(data)
        }
        if ReceiptMarkup.looksLike(data) {
            do { return .receipt(try ReceiptMarkup.commands(data), name: url.lastPathComponent) } catch {
                throw .unreadableFile(path: path, reason: "it is not an ePOS-Print or WebPRNT request KioskPrint can draw: \(error)")
            }
        }
        if RasterDocument.isRaster(data) {
            do { return .raster(try RasterDocument.pages(data, name: url.lastPathComponent), name: url.lastPathComponent) } catch {
                throw .unreadableFile(path: path, reason: "\(error)")
            }
        }
        let bytes = [UInt8](data)
        do {
            _ = try GrayImage.decode(data: bytes, name: path)
        } catch {
            throw .unreadableFile(path: path, reason: "\(error)")
        }
        return .image(bytes, name: url.lastPathComponent)
    }

    /// A PDF must end with its `%%EOF` marker (a cut-short copy does not) and
    /// must not be encrypted (a printer cannot open it without the password).
    static func checkPDF(_ data: Data, path: String) throws(DeliveryError) {
        let tail = String(decoding: data.suffix(2048), as: UTF8.self)
        guard tail.contains("%%EOF") else {
            throw .unreadableFile(path: path, reason: "the PDF is cut short (it has no %%EOF at its end); copy or export it again")
        }
        // The trailer (or cross-reference stream) names /Encrypt when the file is encrypted.
        if data.range(of: Data("/Encrypt".utf8)) != nil {
            throw .unreadableFile(path: path, reason: "the PDF is encrypted; export it again without a password")
        }
    }
}
