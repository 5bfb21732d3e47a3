public import PrintModel

/// A raster page header as libcups reads it back (`cupsRasterReadHeader2`),
/// in Swift values: the fields PWG raster and Apple raster (URF) carry.
///
/// PWG raster keeps most of these; URF keeps only the bitmap's geometry,
/// colour space, quality, duplex, media type and source, and libcups fills
/// the rest (PageSize from dots and dpi, rounded down) when reading it.
public struct RasterHeader: Hashable, Sendable {
    public var mediaClass: String
    public var mediaColor: String
    public var mediaType: String
    public var outputType: String
    /// Raw `CutMedia`; `cut` is the same as a `RasterPageOptions.Cut`.
    public var cutMedia: UInt32
    public var duplex: Bool
    public var resolution: Resolution
    /// Left, bottom, right, top, in points.
    public var imagingBoundingBox: [UInt32]
    public var mediaPosition: UInt32
    public var numCopies: UInt32
    public var orientation: UInt32
    /// Width and height in points.
    public var pageSize: [UInt32]
    public var width: Int
    public var height: Int
    public var bitsPerColor: Int
    public var bitsPerPixel: Int
    public var bytesPerLine: Int
    /// `cupsColorOrder` (0 = chunked).
    public var colorOrder: UInt32
    /// `cupsColorSpace` (3 = K for black_1, 18 = SW for sgray_8).
    public var colorSpace: UInt32
    public var numColors: Int
    public var pageSizeName: String
    public var renderingIntent: String
    /// PWG cupsInteger[0]: pages in the document, 0 if unknown.
    public var totalPageCount: UInt32
    public var crossFeedTransform: UInt32
    public var feedTransform: UInt32
    /// PWG ImageBoxLeft, Top, Right, Bottom in dots.
    public var imageBox: [UInt32]
    public var alternatePrimary: UInt32
    public var printQuality: UInt32

    public var cut: RasterPageOptions.Cut? { RasterPageOptions.Cut(rawValue: cutMedia) }

    /// The page's pixel layout, if it is one `RasterPage` holds.
    public var pixelFormat: RasterPage.PixelFormat? {
        switch (bitsPerPixel, colorSpace) {
        case (1, 3): .black1
        case (8, 18): .sgray8
        default: nil
        }
    }
}
