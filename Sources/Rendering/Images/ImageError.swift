import Foundation

/// Why an image file cannot be printed, worded for the person who made the
/// template: which file, what is wrong with it, and what to do about it.
///
/// `name` is the path (or name) the caller gave, so the message points at
/// the file as the template integrator knows it.
public enum ImageError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Nothing at that path.
    case notFound(name: String)
    /// The path is a folder, not a file.
    case isDirectory(name: String)
    /// A device, pipe or socket rather than a regular file.
    case notARegularFile(name: String)
    /// The file exists but cannot be read; `reason` is the system's.
    case unreadable(name: String, reason: String)
    /// The file is over `RenderLimits.maximumImageFileBytes`.
    case fileTooLarge(name: String, bytes: Int, limit: Int)
    /// Neither PNG nor JPEG. `recognized` names the format when the first
    /// bytes say what it is (GIF, SVG, ...); `leadingBytes` are the first few.
    case unsupportedFormat(name: String, recognized: String?, leadingBytes: [UInt8])
    /// Wider or taller than `RenderLimits.maximumImageSide`, or more than
    /// `RenderLimits.maximumImagePixels` in all, as its header declares.
    case imageTooLarge(name: String, width: Int, height: Int)
    /// Within the pixel limits, but decoding it would take `bytes`, more than
    /// `RenderLimits.maximumImageDecodedBytes` (a 16-bit PNG).
    case decodedTooLarge(name: String, width: Int, height: Int, bytes: Int)
    /// The data ends before the image does (an interrupted copy or download).
    case truncated(name: String, format: String, detail: String)
    /// Starts like a PNG or JPEG but the decoder refused it; `reason` is the
    /// decoder's own text (libjpeg's, cairo's).
    case damaged(name: String, format: String, reason: String)
    /// Memory for the decoded pixels could not be had.
    case outOfMemory(name: String, width: Int, height: Int)

    public var description: String {
        let fix = "Save it as PNG or JPEG."
        switch self {
        case .notFound(let name):
            return "\(name) was not found. Check the image's name in the template "
                + "and that the file is in the template's folder."
        case .isDirectory(let name):
            return "\(name) is a folder, not an image. Name a PNG or JPEG file instead."
        case .notARegularFile(let name):
            return "\(name) is not a regular file (a device, pipe or socket). Name a PNG or JPEG file instead."
        case .unreadable(let name, let reason):
            return "\(name) cannot be read (\(reason)). Check that the file is readable by the user "
                + "KioskPrint runs as."
        case .fileTooLarge(let name, let bytes, let limit):
            return "\(name) is \(Self.megabytes(bytes)), more than the \(Self.megabytes(limit)) an image may be. "
                + "A receipt logo needs far less: scale it down to the printed width (about 600 pixels "
                + "for 80 mm paper) and save it as PNG or JPEG again."
        case .unsupportedFormat(let name, let recognized?, _):
            return "\(name) is a \(recognized) file, which KioskPrint cannot print. \(fix)"
        case .unsupportedFormat(let name, nil, let leading):
            let start = leading.isEmpty ? "it is empty" : "it starts with \(Self.shown(leading))"
            return "\(name) is not a PNG or JPEG image (\(start)). \(fix)"
        case .imageTooLarge(let name, let width, let height):
            return "\(name) declares \(width) x \(height) pixels, more than KioskPrint decodes (at most "
                + "\(RenderLimits.maximumImageSide) pixels a side and \(RenderLimits.maximumImagePixels / 1_000_000) megapixels; "
                + "a 4 x 6 in label at 300 dpi is 2.2). It was not decoded. "
                + "Scale it down to the printed width (about 600 pixels for 80 mm paper) and save it again."
        case .decodedTooLarge(let name, let width, let height, let bytes):
            return "\(name) (\(width) x \(height) pixels) would take \(Self.megabytes(bytes)) to decode, more than the "
                + "\(Self.megabytes(RenderLimits.maximumImageDecodedBytes)) KioskPrint allows one image. It was not decoded. "
                + "Save it with 8 bits a channel, or scale it down to the printed width, and try again."
        case .truncated(let name, let format, let detail):
            return "\(name) ends before the whole \(format) image is there (\(detail)): the file is cut short, "
                + "as by an interrupted copy or download. Copy or export it again."
        case .damaged(let name, let format, let reason):
            return "\(name) starts like a \(format) image but cannot be decoded (\(reason)). "
                + "Open it in an image editor and export it again as PNG or JPEG."
        case .outOfMemory(let name, let width, let height):
            return "\(name) (\(width) x \(height) pixels) could not be decoded: out of memory. "
                + "Scale it down to the printed width and save it again."
        }
    }

    /// The path or name the error is about.
    public var name: String {
        switch self {
        case .notFound(let name), .isDirectory(let name), .notARegularFile(let name),
             .unreadable(let name, _), .fileTooLarge(let name, _, _), .unsupportedFormat(let name, _, _),
             .imageTooLarge(let name, _, _), .decodedTooLarge(let name, _, _, _), .truncated(let name, _, _), .damaged(let name, _, _),
             .outOfMemory(let name, _, _):
            return name
        }
    }

    private static func megabytes(_ bytes: Int) -> String {
        let tenths = (bytes * 10 + 524_288) / 1_048_576
        return tenths % 10 == 0 ? "\(tenths / 10) MB" : "\(tenths / 10).\(tenths % 10) MB"
    }

    // Text when the bytes are printable ASCII (a text file saved as .png
    // shows what it is), hex otherwise.
    private static func shown(_ bytes: [UInt8]) -> String {
        if bytes.allSatisfy({ (0x20...0x7E).contains($0) || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) {
            let text = String(decoding: bytes, as: UTF8.self)
                .replacingOccurrences(of: "\n", with: "\\n").replacingOccurrences(of: "\r", with: "\\r")
                .replacingOccurrences(of: "\t", with: "\\t")
            return "\"\(text)\""
        }
        let hex = bytes.map { byte in
            let digits = String(byte, radix: 16, uppercase: true)
            return digits.count == 1 ? "0" + digits : digits
        }
        return "bytes " + hex.joined(separator: " ")
    }
}
