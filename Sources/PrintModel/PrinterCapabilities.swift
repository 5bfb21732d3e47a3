/// Everything KioskPrint knows about a printer after contacting it: the
/// answer to an IPP Get-Printer-Attributes request (Apple:
/// `UIPrinter.contactPrinter`), reduced to what printing decisions need.
///
/// A value type, stored as JSON beside the printer in the database, so a
/// saved printer can be rendered for without asking it again.
public struct PrinterCapabilities: Hashable, Codable, Sendable {
    /// `printer-name`.
    public var name: String
    /// `printer-location`, empty when the printer does not say.
    public var location: String
    /// `printer-make-and-model`.
    public var makeAndModel: String
    /// `printer-uuid` without its `urn:uuid:` prefix.
    public var uuid: String?
    /// The job kinds the printer is made for.
    public var kinds: Set<JobKind>
    /// Where `kinds` came from: the printer itself, its DNS-SD record, or our
    /// inference from the media it holds.
    public var kindsSource: KindsSource
    public var state: PrinterState
    public var stateReasons: [StateReason]
    /// `printer-state-message`, the printer's own words.
    public var stateMessage: String?
    /// `document-format-supported`, MIME types.
    public var documentFormats: [String]
    public var resolutions: Resolutions
    /// Rolls the printer can print on, cut to a length of the job's choosing.
    public var rolls: [RollMedia]
    /// Fixed sizes the printer supports (sheets, labels, tickets).
    public var sheets: [SheetMedia]
    /// `media-col-ready` / `media-ready`: what is loaded now.
    public var readyMedia: [String]
    /// Cutting finishings the printer lists.
    public var trims: [Trim]
    public var color: Bool
    public var duplex: Bool
    public var copies: ClosedRange<Int>
    /// `printer-more-info` or the DNS-SD `adminurl`: where a person configures the printer.
    public var adminURL: String?
    /// For a raw printer (ESC/POS, ZPL), what it can do from the model catalog
    /// and the administrator's overrides; nil for an IPP printer. Optional, so
    /// capabilities stored before raw printers existed still decode.
    public var rawProfile: RawProfile?
    /// The cash drawer's switch when the printer was last contacted (true =
    /// open); nil when it was not read (an IPP printer, a write-only link).
    /// Optional, so capabilities stored before it existed still decode.
    public var drawerOpen: Bool?
    /// What the printer reported that cannot be true and was left out (a
    /// resolution of 0 dpi, margins wider than the paper), in words; nil when
    /// it all made sense. Optional, so capabilities stored before it decode.
    public var implausible: [String]?

    public enum KindsSource: String, Codable, Sendable {
        /// IPP `printer-kind`.
        case printer
        /// The DNS-SD TXT `kind` key.
        case dnssd
        /// Guessed from the media the printer reports (rolls, labels, sheets).
        case inferred
    }

    public init(name: String, location: String = "", makeAndModel: String = "", uuid: String? = nil,
                kinds: Set<JobKind> = [], kindsSource: KindsSource = .printer,
                state: PrinterState = .idle, stateReasons: [StateReason] = [], stateMessage: String? = nil,
                documentFormats: [String] = [], resolutions: Resolutions = Resolutions(),
                rolls: [RollMedia] = [], sheets: [SheetMedia] = [], readyMedia: [String] = [],
                trims: [Trim] = [], color: Bool = false, duplex: Bool = false,
                copies: ClosedRange<Int> = 1...1, adminURL: String? = nil, rawProfile: RawProfile? = nil,
                drawerOpen: Bool? = nil) {
        self.name = name; self.location = location; self.makeAndModel = makeAndModel; self.uuid = uuid
        self.kinds = kinds; self.kindsSource = kindsSource
        self.state = state; self.stateReasons = stateReasons; self.stateMessage = stateMessage
        self.documentFormats = documentFormats; self.resolutions = resolutions
        self.rolls = rolls; self.sheets = sheets; self.readyMedia = readyMedia
        self.trims = trims; self.color = color; self.duplex = duplex; self.copies = copies
        self.adminURL = adminURL; self.rawProfile = rawProfile; self.drawerOpen = drawerOpen
    }

    /// True when the printer is a roll printer: it can cut to the job's length.
    public var hasRoll: Bool { !rolls.isEmpty }

    /// Reasons that keep a job from printing until someone acts (out of paper, jam, cover open...).
    public var attentionReasons: [StateReason] { stateReasons.filter(\.needsAttention) }
}

/// The resolutions a printer accepts, per raster format.
public struct Resolutions: Hashable, Codable, Sendable {
    /// `pwg-raster-document-resolution-supported`.
    public var pwgRaster: [Resolution]
    /// From `urf-supported`'s `RS` entry.
    public var appleRaster: [Resolution]
    /// `printer-resolution-supported`.
    public var printer: [Resolution]
    /// `printer-resolution-default`.
    public var preferred: Resolution?

    public init(pwgRaster: [Resolution] = [], appleRaster: [Resolution] = [],
                printer: [Resolution] = [], preferred: Resolution? = nil) {
        self.pwgRaster = pwgRaster; self.appleRaster = appleRaster
        self.printer = printer; self.preferred = preferred
    }

    /// The printer's own resolution: its stated default, else the lowest raster
    /// resolution (thermal printers have exactly one), else nil.
    public var native: Resolution? {
        preferred ?? (pwgRaster + appleRaster + printer).min()
    }

    /// Every distinct resolution, lowest first.
    public var all: [Resolution] { Array(Set(pwgRaster + appleRaster + printer)).sorted() }
}
