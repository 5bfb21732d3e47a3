/// What a file is, by its first bytes: the extension is whatever the
/// person saving it typed, the magic bytes are what the encoder wrote.
enum ImageFormat: Equatable {
    case png
    case jpeg
    /// Netpbm's binary greymap, which pages already drawn come as (`PGMCodec`).
    case pgm
    /// Something else; the name of the format when it is a common one, so
    /// the error can say "is a GIF file" instead of showing bytes.
    case other(recognized: String?)

    /// How many leading bytes an error shows for an unknown format.
    static let shownBytes = 12

    init(sniffing data: [UInt8]) {
        func starts(_ prefix: [UInt8], at offset: Int = 0) -> Bool {
            data.count >= offset + prefix.count && Array(data[offset..<(offset + prefix.count)]) == prefix
        }
        func startsText(_ prefix: String, at offset: Int = 0) -> Bool { starts(Array(prefix.utf8), at: offset) }

        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { self = .png; return }
        // SOI then the start of any marker; JFIF, Exif and bare JPEGs differ after that.
        if starts([0xFF, 0xD8, 0xFF]) { self = .jpeg; return }
        if startsText("P5"), data.count > 2, [0x20, 0x0A, 0x0D, 0x09].contains(data[2]) { self = .pgm; return }

        let recognized: String? =
            if startsText("GIF87a") || startsText("GIF89a") { "GIF" }
            else if startsText("BM") && Self.hasBMPInfoHeader(data) { "BMP" }
            else if startsText("RIFF") && startsText("WEBP", at: 8) { "WebP" }
            else if starts([0x49, 0x49, 0x2A, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2A]) { "TIFF" }
            else if startsText("ftypheic", at: 4) || startsText("ftypheix", at: 4) || startsText("ftypmif1", at: 4) { "HEIC" }
            else if startsText("ftypavif", at: 4) { "AVIF" }
            else if startsText("%PDF") { "PDF" }
            else if Self.looksLikeSVG(data) { "SVG" }
            else { nil }
        self = .other(recognized: recognized)
    }

    // "BM" alone starts plenty of text files; a BMP also has a known DIB
    // header size (12, 40, 52, 56, 108 or 124) at byte 14.
    private static func hasBMPInfoHeader(_ data: [UInt8]) -> Bool {
        data.count >= 18 && [12, 40, 52, 56, 108, 124].contains(data[14]) && data[15] == 0 && data[16] == 0
            && data[17] == 0
    }

    // SVG is text, usually behind an XML declaration or a comment: look for
    // "<svg" near the start.
    private static func looksLikeSVG(_ data: [UInt8]) -> Bool {
        let head = String(decoding: data.prefix(1024), as: UTF8.self).lowercased()
        return head.contains("<svg")
    }

    /// A PNG's size from its IHDR chunk (always the first, at a fixed
    /// offset), read before decoding so an oversized image is refused
    /// before its pixels are allocated. Nil when the header is not there.
    static func pngSize(_ data: [UInt8]) -> (width: Int, height: Int)? {
        guard data.count >= 24, Array(data[12..<16]) == Array("IHDR".utf8) else { return nil }
        func bigEndian(_ offset: Int) -> Int {
            data[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) }
        }
        return (bigEndian(16), bigEndian(20))
    }

    /// A PNG's bits per channel (1, 2, 4, 8 or 16) from its IHDR chunk; nil when the header is not there.
    static func pngBitDepth(_ data: [UInt8]) -> Int? {
        guard pngSize(data) != nil, data.count >= 25 else { return nil }
        return Int(data[24])
    }
}
