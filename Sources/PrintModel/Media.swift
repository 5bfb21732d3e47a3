/// A roll the printer holds: paper of a fixed width, cut to any length in
/// `cutLengths`. On a roll printer the job decides where to cut (Apple:
/// `cutLengthForPaper`); in IPP that decision is the `y-dimension` of the
/// job's `media-col`, inside the range the printer reports here.
public struct RollMedia: Hashable, Codable, Sendable {
    public var width: Length
    public var cutLengths: ClosedRange<Length>
    public var margins: Margins
    /// `main-roll`, `by-pass-tray`... when the printer names the source.
    public var source: String?
    /// The `media-size-name` of the custom range, e.g. `custom_min_80x25mm`.
    public var name: String?

    public init(width: Length, cutLengths: ClosedRange<Length>, margins: Margins = .none,
                source: String? = nil, name: String? = nil) {
        self.width = width; self.cutLengths = cutLengths; self.margins = margins
        self.source = source; self.name = name
    }

    /// The width the printer can put ink on.
    public var printableWidth: Length { width - margins.left - margins.right }
}

/// A fixed sheet or label: a full rectangle and the printable area inside its margins.
/// Apple calls the pair a `UIPrintPaper`.
public struct SheetMedia: Hashable, Codable, Sendable {
    /// The PWG self-describing name, e.g. `na_index-4x6_4x6in` or `iso_a4_210x297mm`.
    public var name: String?
    public var width: Length
    public var length: Length
    public var margins: Margins
    public var source: String?
    /// `labels`, `stationery`, `photographic`... when the printer says.
    public var type: String?

    public init(name: String? = nil, width: Length, length: Length, margins: Margins = .none,
                source: String? = nil, type: String? = nil) {
        self.name = name; self.width = width; self.length = length
        self.margins = margins; self.source = source; self.type = type
    }

    /// The PWG name when there is one, else `101.6 x 152.4 mm`.
    public var label: String { name ?? dimensions }

    /// `101.6 x 152.4 mm`.
    public var dimensions: String { "\(width.millimetreFigure) x \(length.millimetreFigure) mm" }
}

/// A `finishings` value that cuts. IPP enum numbers (PWG 5100.1).
public enum Trim: Int, CaseIterable, Codable, Sendable, CustomStringConvertible {
    case afterPages = 60
    case afterDocuments = 61
    case afterCopies = 62
    case afterJob = 63
    /// The generic `trim` finishing: cut, where the printer decides.
    case trim = 11

    public var description: String {
        switch self {
        case .afterPages: "trim-after-pages"
        case .afterDocuments: "trim-after-documents"
        case .afterCopies: "trim-after-copies"
        case .afterJob: "trim-after-job"
        case .trim: "trim"
        }
    }
}
