/// What a raw printer can do, where the printer itself cannot be asked: raw
/// printers answer no Get-Printer-Attributes, so these figures come from the
/// built-in model catalog, the administrator's overrides (`--width`,
/// `--printable`, `--dpi`, `--language`), or both.
///
/// Stored inside `PrinterCapabilities` (as `rawProfile`), so a saved raw
/// printer is rendered for and driven without looking the model up again.
public struct RawProfile: Hashable, Codable, Sendable {
    /// `Epson`, `Zebra`; empty when unknown.
    public var make: String
    /// `TM-T88VI`, `ZD420-203dpi`; what the administrator gave when the model is not in the catalog.
    public var model: String
    /// The command language it is driven with.
    public var language: PrinterLanguage
    /// Receipts or labels: decides the job kinds the printer serves.
    public var kind: PrinterKind
    /// The paper (or label stock) width.
    public var paperWidth: Length
    /// Dots the head prints across that paper: the bitmap width sent.
    public var printableDots: Int
    /// The head's resolution as its maker states it (a 203 dpi head is 8 dots/mm; see `DotPitch`).
    public var dpi: Int
    /// Its autocutter.
    public var cutter: Cutter
    /// The shortest piece the printer cuts (or the shortest label it feeds).
    public var minimumCut: Length
    /// The longest piece one job page may be.
    public var maximumCut: Length
    /// The drawer-kick outputs, in ESC/POS terms (`ESC p` m = 0: pin 2, m = 1: pin 5). Empty: no drawer port.
    public var drawerPins: [DrawerPin]
    /// True when the printer has a paper near-end sensor, so "media-low" can be reported before it runs out.
    public var nearEndSensor: Bool
    /// True when the printer answers Epson's `GS ( H` fn 48 process ID, which confirms a print finished.
    public var processIDResponse: Bool
    /// How the printer finds the start of a label (ZPL `^MN`); `.continuous` for receipt rolls.
    public var mediaTracking: MediaTracking
    /// Where the figures came from: the data sheet's title and address, or "given with --width ...".
    public var source: String

    /// A profile; `kind` defaults to the language's usual one (receipts for ESC/POS, labels for ZPL).
    public init(make: String = "", model: String, language: PrinterLanguage, kind: PrinterKind? = nil,
                paperWidth: Length, printableDots: Int, dpi: Int, cutter: Cutter,
                minimumCut: Length, maximumCut: Length, drawerPins: [DrawerPin] = [],
                nearEndSensor: Bool = false, processIDResponse: Bool = false,
                mediaTracking: MediaTracking = .continuous, source: String) {
        self.make = make; self.model = model; self.language = language
        self.kind = kind ?? language.usualKind
        self.paperWidth = paperWidth; self.printableDots = printableDots; self.dpi = dpi
        self.cutter = cutter; self.minimumCut = minimumCut; self.maximumCut = maximumCut
        self.drawerPins = drawerPins; self.nearEndSensor = nearEndSensor
        self.processIDResponse = processIDResponse; self.mediaTracking = mediaTracking
        self.source = source
    }

    /// `Epson TM-T88VI`, or the model alone when the make is unknown.
    public var makeAndModel: String { make.isEmpty ? model : "\(make) \(model)" }

    /// What a raw printer is for.
    public enum PrinterKind: String, Codable, Sendable, CaseIterable {
        case receipt
        case label
    }

    /// The cuts the printer's autocutter can make.
    public enum Cutter: String, Codable, Sendable, CaseIterable {
        /// No autocutter: the paper is torn off.
        case none
        /// Partial cuts only (one point left uncut), as most receipt printers.
        case partial
        /// Full cuts only.
        case full
        /// Both partial and full cuts.
        case both

        /// The cut to make when `wanted` is asked for: the wanted one when the
        /// cutter makes it, else the one it does make; `.none` without a cutter.
        public func cut(preferring wanted: CutKind) -> CutKind {
            switch (self, wanted) {
            case (.none, _), (_, .none): .none
            case (.both, _): wanted
            case (.partial, _): .partial
            case (.full, _): .full
            }
        }
    }

    /// One cut, as a job asks for it.
    public enum CutKind: String, Codable, Sendable, CaseIterable {
        /// No cut: the paper is torn off at the tear bar.
        case none
        case partial
        case full
    }

    /// A drawer-kick output of the ESC/POS drawer connector.
    public enum DrawerPin: String, Codable, Sendable, CaseIterable, Comparable {
        /// Connector pin 2 (`ESC p` m = 0): the first or only drawer.
        case pin2
        /// Connector pin 5 (`ESC p` m = 1): the second drawer.
        case pin5

        public static func < (a: DrawerPin, b: DrawerPin) -> Bool { a.rawValue < b.rawValue }
    }

    /// How a label printer finds where a label starts (ZPL `^MN`).
    public enum MediaTracking: String, Codable, Sendable, CaseIterable {
        /// Continuous stock: the length is whatever the job says (`^MNN`).
        case continuous
        /// Die-cut labels with a gap or notch between them (`^MNY`, web sensing).
        case gap
        /// A black mark on the back of the stock (`^MNM`).
        case mark
    }
}
