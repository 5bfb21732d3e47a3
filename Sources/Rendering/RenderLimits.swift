public import PrintModel

/// The most one job may make the renderer read, decode, keep or draw, in one place.
///
/// Whoever can write a template or drop a file must not be able to exhaust
/// the agent's memory: each limit is checked before the work it bounds
/// (an image's size from its header, before a pixel is decoded). Each is
/// sized well above the largest real use. README ("Limits") lists them.
public enum RenderLimits {
    /// Image files above this many bytes (20 MB) are refused unread: a logo is
    /// a few kilobytes, and a kiosk should not spend its memory on a photo.
    public static let maximumImageFileBytes = 20 * 1_048_576
    /// Widest or tallest image decoded, in pixels.
    public static let maximumImageSide = 10_000
    /// Most pixels in an image (8 megapixels), read from its header before
    /// decoding. The largest real use, a full 4 x 6 in label at 300 dpi, is
    /// 1200 x 1800 = 2.2 megapixels; a logo is a fraction of one.
    public static let maximumImagePixels = 8_000_000
    /// Most memory one image may take while it is decoded (96 MB): an 8-bit
    /// PNG takes 9 bytes a pixel (cairo's surface, the surface over white,
    /// the grey), 72 MB at 8 megapixels; a 16-bit one 21 bytes a pixel.
    public static let maximumImageDecodedBytes = 96 * 1_048_576
    /// Most bytes the decoded-image caches keep in all (64 MB): a kiosk's
    /// few logos are far less, and a template naming many large images must
    /// not grow the agent without end.
    public static let imageCacheBytes = 64 * 1_048_576

    /// Most pixels in one page a client drew (PWG raster, URF): an A4 page
    /// at 600 dpi is 35 megapixels, a 3 m receipt at 203 dpi 14. Such pages
    /// are drawn again at the printer's resolution before they are laid out.
    public static let maximumDrawnPagePixels = 40_000_000
    /// Widest or tallest such page, in pixels.
    public static let maximumDrawnPageSide = 65_535
    /// Most memory all the pages of one such document may take once read
    /// (a byte a pixel): a run-length-coded page of a few kilobytes can
    /// declare forty megapixels, so the total is bounded, not the bytes sent.
    public static let maximumDrawnDocumentBytes = 96 * 1_048_576

    /// Most pieces of paper one job may make, counting every `<cut/>`: checked
    /// before anything is drawn. The 20,000-item end-of-day report is 27.
    public static let maximumPiecesPerJob = CutPlanner.maximumPieces
    /// Most paper one job may use in all (200 m, half a day's 80 mm roll
    /// stock), checked from the cut plan before anything is drawn.
    public static let maximumJobLength = Length.millimetres(200_000)
}
