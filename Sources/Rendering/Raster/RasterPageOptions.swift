public import PrintModel

/// What a raster page header says besides the bitmap: the cut, the paper
/// size and name, media type and source, copies.
///
/// On a roll printer the header's `CutMedia` and `PageSize` carry the same
/// decision as the job's `finishings` and `media-col` y-dimension: the page
/// is this long and the knife falls after it (or not).
public struct RasterPageOptions: Hashable, Sendable {
    /// When the printer cuts the roll, as CUPS raster's `CutMedia` says it.
    /// Raw values are libcups' `cups_cut_t`.
    public enum Cut: UInt32, Hashable, Sendable, CaseIterable {
        /// Never cut (CUPS_CUT_NONE).
        case none = 0
        /// After the last page of this document (CUPS_CUT_FILE).
        case afterDocument = 1
        /// After the last page of the job (CUPS_CUT_JOB).
        case afterJob = 2
        /// After each copy of the document (CUPS_CUT_SET).
        case afterSet = 3
        /// After this page (CUPS_CUT_PAGE).
        case afterPage = 4
    }

    /// The paper a page is printed on, when it is not simply the bitmap's
    /// size in dots (for instance a roll width that is not a whole number
    /// of dots).
    public struct MediaSize: Hashable, Sendable {
        public var width: Length
        public var height: Length
        public init(width: Length, height: Length) { self.width = width; self.height = height }
    }

    public var cut: Cut
    /// The paper; nil: the bitmap's own size, dots / dpi, to the nearest
    /// hundredth of a millimetre.
    public var mediaSize: MediaSize?
    /// `cupsPageSizeName`; nil: a PWG self-describing name built from the
    /// media size by libcups' pwgFormatSizeName, `custom_80x120.5mm_80x120.5mm`.
    public var pageSizeName: String?
    /// IPP `media-type` keyword (`stationery`, `labels`, ...), empty if unknown.
    public var mediaType: String
    /// IPP `media-color` keyword, empty if unknown.
    public var mediaColor: String
    /// IPP `media-source` keyword (`main-roll`, ...): becomes MediaPosition.
    public var mediaSource: String?
    /// `NumCopies`: copies the printer itself makes of this page.
    public var copies: Int

    public init(cut: Cut = .none, mediaSize: MediaSize? = nil, pageSizeName: String? = nil,
                mediaType: String = "", mediaColor: String = "", mediaSource: String? = nil, copies: Int = 1) {
        self.cut = cut; self.mediaSize = mediaSize; self.pageSizeName = pageSizeName
        self.mediaType = mediaType; self.mediaColor = mediaColor
        self.mediaSource = mediaSource; self.copies = copies
    }

    /// The media size a page of `width` x `height` dots covers at `resolution`,
    /// rounded to the nearest hundredth of a millimetre.
    public static func mediaSize(width: Int, height: Int, resolution: Resolution) -> MediaSize {
        func length(_ dots: Int, _ dpi: Int) -> Length {
            Length(hundredthsOfMillimetre: (dots * 2540 * 2 + dpi) / (2 * dpi))
        }
        return MediaSize(width: length(width, resolution.horizontal), height: length(height, resolution.vertical))
    }

    /// PWG 5102.4 MediaPosition for a `media-source` keyword (the order of
    /// its table); 0 (auto) for a keyword it does not list.
    static func mediaPosition(for source: String?) -> UInt32 {
        guard let source, let index = mediaSources.firstIndex(of: source) else { return 0 }
        return UInt32(index)
    }

    private static let mediaSources = [
        "auto", "main", "alternate", "large-capacity", "manual", "envelope", "disc", "photo",
        "hagaki", "main-roll", "alternate-roll", "top", "middle", "bottom", "side", "left",
        "right", "center", "rear", "by-pass-tray",
    ] + (1...20).map { "tray-\($0)" } + (1...10).map { "roll-\($0)" }
}
