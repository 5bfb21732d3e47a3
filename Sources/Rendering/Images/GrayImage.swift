/// A picture as the printer will see it: one luminance byte per pixel,
/// 0 = black ... 255 = white, rows top to bottom with no padding.
///
/// Loaded from a PNG or JPEG file (`load(path:)`), scaled to the printer's
/// dots (`scaled(toWidth:)`), then turned into ink (`ink(dither:)`). A plain
/// value with no C inside, so it can be cached and cross actors.
public struct GrayImage: Hashable, Sendable {
    public let width: Int
    public let height: Int
    /// `width * height` bytes, row by row: 0 = black, 255 = white (paper).
    public let luminance: [UInt8]

    /// An image from its pixels; `luminance` must hold `width * height` bytes.
    public init(width: Int, height: Int, luminance: [UInt8]) {
        precondition(width >= 0 && height >= 0 && luminance.count == width * height,
                     "\(luminance.count) bytes for a \(width) x \(height) image")
        self.width = width
        self.height = height
        self.luminance = luminance
    }

    /// The image's size in bytes, for caches bounded by bytes.
    var byteCount: Int { luminance.count }

    /// Refuses an image whose header declares more than `RenderLimits`
    /// allows, before any pixel is decoded. `bytesPerPixel`: the memory the
    /// decoder takes for each pixel while it works.
    static func checkDeclaredSize(width: Int, height: Int, bytesPerPixel: Int, name: String) throws(ImageError) {
        guard width <= RenderLimits.maximumImageSide, height <= RenderLimits.maximumImageSide,
              width * height <= RenderLimits.maximumImagePixels else {
            throw .imageTooLarge(name: name, width: width, height: height)
        }
        let decoded = width * height * bytesPerPixel
        guard decoded <= RenderLimits.maximumImageDecodedBytes else {
            throw .decodedTooLarge(name: name, width: width, height: height, bytes: decoded)
        }
    }

    /// Luminance at one pixel (0 black ... 255 white).
    public func luminance(x: Int, y: Int) -> UInt8 {
        precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel outside the image")
        return luminance[y * width + x]
    }

    /// Reads and decodes the PNG or JPEG at `path`. The format comes from
    /// the file's first bytes, not its extension. Refuses missing files,
    /// folders, and what is over `RenderLimits`' image limits (checked from
    /// the file's size and its header, before decoding), and data that does
    /// not decode; each error names `path` and says what to do.
    public static func load(path: String) throws(ImageError) -> GrayImage {
        let data = try ImageFile.read(path: path, limit: RenderLimits.maximumImageFileBytes)
        return try decode(data: data, name: path)
    }

    /// Decodes a PNG or JPEG already in memory. `name` is what errors call it
    /// (a file name, or "the uploaded logo").
    public static func decode(data: [UInt8], name: String) throws(ImageError) -> GrayImage {
        guard data.count <= RenderLimits.maximumImageFileBytes else {
            throw .fileTooLarge(name: name, bytes: data.count, limit: RenderLimits.maximumImageFileBytes)
        }
        switch ImageFormat(sniffing: data) {
        case .png: return try PNGDecoder.decode(data, name: name)
        case .jpeg: return try JPEGDecoder.decode(data, name: name)
        case .pgm: return try PGMCodec.decode(data, name: name)
        case .other(let recognized):
            throw .unsupportedFormat(name: name, recognized: recognized,
                                     leadingBytes: Array(data.prefix(ImageFormat.shownBytes)))
        }
    }
}
