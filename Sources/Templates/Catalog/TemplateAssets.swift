/// Where a template's images come from: the folder its file sits in, or,
/// for a built-in template, the bytes compiled into the program with it.
public struct TemplateAssets: Hashable, Sendable {
    /// The template's folder; `<image src>` names are relative to it.
    public var folder: String?
    /// Files carried in memory, by name (built-ins' logos). Looked up first.
    public var embedded: [String: [UInt8]]
    /// Images already decoded, by name: the pages a client drew (PWG raster,
    /// URF, a PDF Ghostscript drew), handed over as pixels so that they are
    /// neither encoded nor decoded again, nor kept in the image cache, which
    /// is for images printed again and again. Looked up before `embedded`.
    public var pixels: [String: GrayPixels]

    public init(folder: String? = nil, embedded: [String: [UInt8]] = [:], pixels: [String: GrayPixels] = [:]) {
        self.folder = folder
        self.embedded = embedded
        self.pixels = pixels
    }

    /// No images at all.
    public static let none = TemplateAssets()
}

/// An 8-bit grey image's pixels, row by row, 0 black to 255 white (paper).
public struct GrayPixels: Hashable, Sendable {
    public let width: Int
    public let height: Int
    public let luminance: [UInt8]

    /// Nil unless `luminance` holds `width * height` bytes.
    public init?(width: Int, height: Int, luminance: [UInt8]) {
        guard width > 0, height > 0, luminance.count == width * height else { return nil }
        self.width = width; self.height = height; self.luminance = luminance
    }
}
