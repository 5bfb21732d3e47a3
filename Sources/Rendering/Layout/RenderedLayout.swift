public import PrintModel
public import Templates

/// What `LayoutRenderer` drew: an ink bitmap the width of the media and as
/// tall as the content, plus what it could not draw faithfully.
///
/// A plain value (no cairo or Pango inside), so it can cross actors and be
/// kept, compared and turned into a raster page or a preview later.
public struct RenderedLayout: Hashable, Sendable {
    /// Media width in dots (`PageGeometry.widthInDots`): the raster covers the
    /// whole media, the content sits in its printable part.
    public var width: Int
    /// Content height in dots, top of the first block to bottom of the last.
    public var height: Int
    public var resolution: Resolution
    /// `width * height` bytes, row by row with no padding: 0 = paper, 255 = full ink
    /// (cairo A8 coverage).
    public var ink: [UInt8]
    /// Everything that was not drawn as written, in reading order.
    public var problems: [RenderProblem]
    /// Offsets from the top, in dots, where a cut may split the content:
    /// after each block and between the lines of a table.
    public var breaks: [Int] = []

    /// The content height as a length, rounded up so a cut placed after it
    /// never lands inside the last line.
    public var contentLength: Length {
        let dpi = max(1, resolution.vertical)
        return Length(hundredthsOfMillimetre: (height * 2540 + dpi - 1) / dpi)
    }

    /// Ink at one dot (0...255).
    public func ink(x: Int, y: Int) -> UInt8 {
        precondition(x >= 0 && x < width && y >= 0 && y < height, "dot outside the layout")
        return ink[y * width + x]
    }
}

/// Something in a layout that was drawn differently from what the template
/// says, or not at all. Reported, never silently papered over: a receipt with
/// a box instead of a letter is a wrong receipt.
public struct RenderProblem: Hashable, Sendable, CustomStringConvertible {
    public enum Kind: String, Hashable, Sendable {
        /// The fonts have no glyph for some characters.
        case missingGlyphs
        /// Text with `wrap: none` was longer than its width and ends in "…".
        case truncated
        /// A row's columns do not fit across the printable width.
        case tooWide
        /// Barcode data the symbology cannot encode; the barcode is left out.
        case barcodeInvalid
        /// A barcode too wide for the printable width even with 1-dot modules.
        case barcodeTooWide
        /// A barcode drawn with smaller modules than asked, to fit.
        case barcodeShrunk
        /// An image that is missing, unreadable or outside the template's folder.
        case imageUnavailable
        /// A `<cut/>` where it cannot split the paper (inside a box or header).
        case misplacedCut
        /// A Mustache section that reached the renderer without data.
        case unboundSection

        /// True when the page would be wrong without the block (a barcode or
        /// image left out): such a page must not be printed. The others are
        /// drawn differently from what was written, and only reported.
        public var isError: Bool {
            switch self {
            case .barcodeInvalid, .barcodeTooWide, .imageUnavailable, .unboundSection: true
            case .missingGlyphs, .truncated, .tooWide, .barcodeShrunk, .misplacedCut: false
            }
        }
    }

    public var kind: Kind
    public var message: String
    /// Where the block stands in the template.
    public var location: SourceLocation

    public init(kind: Kind, message: String, location: SourceLocation) {
        self.kind = kind; self.message = message; self.location = location
    }

    public var isError: Bool { kind.isError }

    public var description: String { "\(location): \(isError ? "error" : "warning"): \(message)" }
}
