/// The page a renderer draws for one printer and one job: the media width,
/// the printable area inside the hardware margins, the resolution, and how
/// the page length is decided (a roll cut within a range, or a fixed sheet).
///
/// Built from a printer's saved capabilities, so a job renders without
/// asking the printer again, or given explicitly for previews
/// (`--width 80mm --dpi 203`). The page length itself is decided per job by
/// `CutPlanner`; everything here that depends on it takes it as a parameter.
///
/// Dots: the raster covers the whole media at the stated resolution
/// (`Length.dots(at:)`: 80 mm at 203 dpi is 639 dots); the printable area
/// inside it is placed at the head's own pitch (`DotPitch`: 4 mm margins on
/// an 8 dots/mm head leave 576 dots, starting at dot 32).
public struct PageGeometry: Hashable, Codable, Sendable {
    /// How the page length is decided.
    public enum Feed: Hashable, Codable, Sendable {
        /// A roll: the job chooses the cut, inside this range.
        case roll(cutLengths: ClosedRange<Length>)
        /// A fixed sheet or label of this length.
        case sheet(length: Length)
    }

    public var mediaWidth: Length
    public var margins: Margins
    public var resolution: Resolution
    public var feed: Feed
    /// The `media-size-name` to send with the job, when the media has one.
    public var mediaName: String?
    /// The `media-source` to send with the job, when the printer names one.
    public var mediaSource: String?

    public init(mediaWidth: Length, margins: Margins = .none, resolution: Resolution, feed: Feed,
                mediaName: String? = nil, mediaSource: String? = nil) {
        self.mediaWidth = mediaWidth; self.margins = margins; self.resolution = resolution
        self.feed = feed; self.mediaName = mediaName; self.mediaSource = mediaSource
    }

    /// A page on `roll`, cut to a length of the job's choosing.
    public init(roll: RollMedia, resolution: Resolution) {
        self.init(mediaWidth: roll.width, margins: roll.margins, resolution: resolution,
                  feed: .roll(cutLengths: roll.cutLengths), mediaName: roll.name, mediaSource: roll.source)
    }

    /// A page the size of `sheet`, in the orientation the printer feeds it.
    public init(sheet: SheetMedia, resolution: Resolution) {
        self.init(mediaWidth: sheet.width, margins: sheet.margins, resolution: resolution,
                  feed: .sheet(length: sheet.length), mediaName: sheet.name, mediaSource: sheet.source)
    }

    /// The page for `capabilities`' printer on the given media, at the given
    /// resolution or else the printer's native one.
    ///
    /// Without a media: the printer's first roll (a roll printer is used as
    /// one), else its first loaded sheet, else its first sheet.
    public init(capabilities: PrinterCapabilities, media: Media? = nil,
                resolution: Resolution? = nil) throws(GeometryError) {
        guard let resolution = resolution ?? capabilities.resolutions.native else {
            throw .noResolution(printer: capabilities.name)
        }
        let chosen = media ?? capabilities.rolls.first.map(Media.roll)
            ?? capabilities.sheets.first(where: { $0.isReady(in: capabilities.readyMedia) }).map(Media.sheet)
            ?? capabilities.sheets.first.map(Media.sheet)
        switch chosen {
        case .roll(let roll)?: self.init(roll: roll, resolution: resolution)
        case .sheet(let sheet)?: self.init(sheet: sheet, resolution: resolution)
        case nil: throw .noMedia(printer: capabilities.name)
        }
    }

    /// The cut range a preview uses when none is given: 25 mm to 3 m, the
    /// range of common 80 mm receipt printers, so a long preview is split
    /// where such a printer would split it.
    public static let previewCutLengths = Length.millimetres(25)...Length.millimetres(3000)

    /// A roll page described by hand, for previews without a printer
    /// (`--width 80mm --dpi 203`).
    public static func preview(width: Length, dpi: Int, margins: Margins = .none,
                               cutLengths: ClosedRange<Length> = previewCutLengths) -> PageGeometry {
        PageGeometry(mediaWidth: width, margins: margins, resolution: Resolution(dpi),
                     feed: .roll(cutLengths: cutLengths))
    }

    /// The media a geometry is built on.
    public enum Media: Hashable, Codable, Sendable {
        case roll(RollMedia)
        case sheet(SheetMedia)
    }

    // MARK: derived values

    /// True on a roll, where the job chooses the cut.
    public var isRoll: Bool { if case .roll = feed { true } else { false } }

    /// The roll's cut range; nil for a sheet.
    public var cutLengths: ClosedRange<Length>? { if case .roll(let range) = feed { range } else { nil } }

    /// The sheet's length; nil for a roll.
    public var sheetLength: Length? { if case .sheet(let length) = feed { length } else { nil } }

    /// The longest page this media gives: the roll's longest cut, or the sheet.
    public var longestPage: Length {
        switch feed {
        case .roll(let range): range.upperBound
        case .sheet(let length): length
        }
    }

    /// The width the printer can put ink on (never negative).
    public var printableWidth: Length { max(.zero, mediaWidth - margins.left - margins.right) }

    /// Raster width: the whole media at the horizontal resolution (80 mm at 203 dpi: 639).
    public var widthInDots: Int { mediaWidth.dots(at: resolution.horizontal) }

    /// First printable dot across the raster (4 mm at 203 dpi: 32).
    public var printableLeftDots: Int { min(widthInDots, DotPitch(dpi: resolution.horizontal).dots(margins.left)) }

    /// Printable dots across, at the head's pitch (72 mm at 203 dpi: 576),
    /// never past the raster's right edge.
    public var printableWidthDots: Int {
        min(DotPitch(dpi: resolution.horizontal).dots(printableWidth), widthInDots - printableLeftDots)
    }

    /// Raster height of a page `pageLength` long, at the vertical resolution.
    public func heightInDots(pageLength: Length) -> Int { pageLength.dots(at: resolution.vertical) }

    /// The printable area of a page `pageLength` long, in lengths.
    public func printableRect(pageLength: Length) -> LengthRect {
        LengthRect(x: margins.left, y: margins.top, width: printableWidth,
                   height: max(.zero, pageLength - margins.top - margins.bottom))
    }

    /// The printable area of a page `pageLength` long, in raster dots, by the
    /// same rule as across the page (`DotPitch` at the vertical resolution).
    public func printableDots(pageLength: Length) -> DotRect {
        let pitch = DotPitch(dpi: resolution.vertical)
        let height = heightInDots(pageLength: pageLength)
        let top = min(height, pitch.dots(margins.top))
        let printable = printableRect(pageLength: pageLength).height
        return DotRect(x: printableLeftDots, y: top, width: printableWidthDots,
                       height: min(pitch.dots(printable), height - top))
    }
}

/// Why no page geometry could be built for a printer.
public enum GeometryError: Error, Hashable, Sendable, CustomStringConvertible {
    case noResolution(printer: String)
    case noMedia(printer: String)

    public var description: String {
        switch self {
        case .noResolution(let printer):
            "The printer \"\(printer)\" reported no resolution, so pages cannot be drawn for it. "
                + "Contact the printer again to refresh its capabilities, or give the resolution (--dpi 203)."
        case .noMedia(let printer):
            "The printer \"\(printer)\" reported no paper sizes or rolls, so the page size is unknown. "
                + "Check that paper is loaded, contact the printer again, or give the width (--width 80mm)."
        }
    }
}

extension SheetMedia {
    /// True when `ready` (a printer's `readyMedia`) names this sheet, by its
    /// PWG name or by the `W x L mm` description used for unnamed media.
    public func isReady(in ready: [String]) -> Bool {
        ready.contains { $0 == dimensions || (name != nil && $0 == name) }
    }
}

extension RollMedia {
    /// True when `ready` names this roll: by its name, or as `80 mm roll`,
    /// which is how unnamed loaded rolls are listed.
    public func isReady(in ready: [String]) -> Bool {
        ready.contains { $0 == "\(width.millimetreFigure) mm roll" || (name != nil && $0 == name) }
    }
}
