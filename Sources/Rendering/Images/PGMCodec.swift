/// Netpbm's binary greymap (`P5`, 8 bits): how a page already drawn (a
/// client's raster, a rendered PDF page) is handed to the template drawing
/// as an image, with no compression to undo.
public enum PGMCodec {
    /// `P5 WIDTH HEIGHT 255` and the pixels, 0 black to 255 white.
    public static func encode(_ image: GrayImage) -> [UInt8] {
        Array("P5\n\(image.width) \(image.height)\n255\n".utf8) + image.luminance
    }

    static func decode(_ data: [UInt8], name: String) throws(ImageError) -> GrayImage {
        // The header: magic, then three decimal numbers separated by whitespace, then one whitespace byte.
        var index = 2
        var numbers: [Int] = []
        while numbers.count < 3 {
            while index < data.count, [0x20, 0x0A, 0x0D, 0x09].contains(data[index]) { index += 1 }
            var value = 0, digits = 0
            while index < data.count, (0x30...0x39).contains(data[index]), digits < 7 {
                value = value * 10 + Int(data[index] - 0x30); index += 1; digits += 1
            }
            guard digits > 0 else { throw .damaged(name: name, format: "PGM", reason: "its header is not three numbers") }
            numbers.append(value)
        }
        index += 1
        let (width, height) = (numbers[0], numbers[1])
        guard numbers[2] == 255, width > 0, height > 0 else {
            throw .damaged(name: name, format: "PGM", reason: "only 8-bit greymaps (maximum 255) of at least one pixel are read")
        }
        // Pages already drawn, with the limits of such pages (a long receipt is taller than any logo).
        try RasterDocument.checkPageSize(width, height, name: name)
        guard data.count - index >= width * height else {
            throw .truncated(name: name, format: "PGM", detail: "it holds \(max(0, data.count - index)) of \(width * height) pixels")
        }
        return GrayImage(width: width, height: height, luminance: Array(data[index..<(index + width * height)]))
    }
}
