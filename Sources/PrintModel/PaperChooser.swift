/// The size a fixed-size template wants: a 4x6 in label, an 8 x 3.25 in
/// boarding pass, an A4 page. Width across the paper, length along it.
public struct PageSize: Hashable, Codable, Sendable, CustomStringConvertible {
    public var width: Length
    public var length: Length

    public init(width: Length, length: Length) { self.width = width; self.length = length }
    public static func inches(_ width: Double, _ length: Double) -> PageSize {
        PageSize(width: .inches(width), length: .inches(length))
    }
    public static func millimetres(_ width: Double, _ length: Double) -> PageSize {
        PageSize(width: .millimetres(width), length: .millimetres(length))
    }

    /// The same page turned a quarter.
    public var rotated: PageSize { PageSize(width: length, length: width) }

    public var description: String { "\(width.millimetreFigure) x \(length.millimetreFigure) mm" }
}

/// The media chosen for a page, and how well it fits.
public struct PaperChoice: Hashable, Sendable {
    /// How well the media fits, best first.
    public enum Fit: Int, Hashable, Comparable, Sendable {
        /// The media is the page's size (to `PaperChooser.sameSizeTolerance`).
        case exact
        /// The page fits inside the media's printable area: nothing is lost.
        case printableArea
        /// The page fits on the media, but the hardware margins clip its edges.
        case media

        public static func < (a: Fit, b: Fit) -> Bool { a.rawValue < b.rawValue }
    }

    public var media: PageGeometry.Media
    /// The page length to print: the sheet's length, or the roll's cut
    /// (the page's length, raised to the roll's shortest cut).
    public var pageLength: Length
    /// True when the page is turned a quarter to fit (print it landscape).
    public var rotated: Bool
    /// True when the printer reports this media as loaded.
    public var isReady: Bool
    public var fit: Fit

    /// The page geometry for this media at `resolution`.
    public func geometry(resolution: Resolution) -> PageGeometry {
        switch media {
        case .roll(let roll): PageGeometry(roll: roll, resolution: resolution)
        case .sheet(let sheet): PageGeometry(sheet: sheet, resolution: resolution)
        }
    }

    /// The policy that cuts this choice at its page length.
    public var cutPolicy: CutPolicy {
        switch media {
        case .roll: .fixed(pageLength)
        case .sheet: .sheet
        }
    }
}

/// Picks the best media a printer has for a fixed-size page (Apple:
/// `choosePaper` / `UIPrintPaper.bestPaper(forPageSize:withPapersFrom:)`).
///
/// A medium is a candidate when the page fits on it, as it is or (when
/// allowed) turned a quarter; a roll fits when it is at least as wide as the
/// page and its cut range reaches the page's length. Candidates are ranked:
///
/// 1. loaded (`readyMedia`) before merely supported: a kiosk has nobody to
///    load paper, and a job for unloaded media waits (`media-needed`);
/// 2. by fit: the page's own size, then the smallest media whose printable
///    area holds the page, then media that holds the page with its edges in
///    the hardware margins;
/// 3. smaller media (area) first: less paper, less scaling;
/// 4. unrotated before rotated; then the printer's own order.
public enum PaperChooser {
    /// Media within 2.5 mm of the page on both sides counts as its size: 4x6 in
    /// (101.6 x 152.4 mm) and 100 x 150 mm labels are the same stock to a person,
    /// while A4 and Letter (5.9 mm apart across) stay different.
    public static let sameSizeTolerance = Length.millimetres(2.5)

    /// The best media on `capabilities`' printer for `page`.
    public static func choose(_ page: PageSize, for capabilities: PrinterCapabilities,
                              allowRotation: Bool = true) throws(PaperError) -> PaperChoice {
        try choose(page, sheets: capabilities.sheets, rolls: capabilities.rolls, ready: capabilities.readyMedia,
                   allowRotation: allowRotation)
    }

    /// The best of `sheets` and `rolls` for `page`; `ready` names the loaded media.
    public static func choose(_ page: PageSize, sheets: [SheetMedia], rolls: [RollMedia] = [],
                              ready: [String] = [], allowRotation: Bool = true) throws(PaperError) -> PaperChoice {
        let orientations = allowRotation && page.width != page.length ? [page, page.rotated] : [page]
        var candidates: [(choice: PaperChoice, area: Int, order: Int)] = []
        for (index, sheet) in sheets.enumerated() {
            for oriented in orientations {
                guard let fit = fit(oriented, width: sheet.width, length: sheet.length, margins: sheet.margins)
                else { continue }
                let choice = PaperChoice(media: .sheet(sheet), pageLength: sheet.length, rotated: oriented != page,
                                         isReady: sheet.isReady(in: ready), fit: fit)
                candidates.append((choice, sheet.width.hundredthsOfMillimetre * sheet.length.hundredthsOfMillimetre,
                                   index))
            }
        }
        for (index, roll) in rolls.enumerated() {
            for oriented in orientations {
                // A page shorter than the shortest cut gets the shortest cut.
                let cut = max(oriented.length, roll.cutLengths.lowerBound)
                guard cut <= roll.cutLengths.upperBound,
                      let fit = fit(oriented, width: roll.width, length: cut, margins: roll.margins) else { continue }
                let choice = PaperChoice(media: .roll(roll), pageLength: cut, rotated: oriented != page,
                                         isReady: roll.isReady(in: ready), fit: fit)
                candidates.append((choice, roll.width.hundredthsOfMillimetre * cut.hundredthsOfMillimetre,
                                   sheets.count + index))
            }
        }
        let best = candidates.min { a, b in
            (a.choice.isReady ? 0 : 1, a.choice.fit.rawValue, a.area, a.choice.rotated ? 1 : 0, a.order)
                < (b.choice.isReady ? 0 : 1, b.choice.fit.rawValue, b.area, b.choice.rotated ? 1 : 0, b.order)
        }
        guard let best else {
            throw .noFit(wanted: page, available: sheets.map(describe) + rolls.map(describe))
        }
        return best.choice
    }

    /// How `page` fits media of this size and margins; nil when it does not.
    static func fit(_ page: PageSize, width: Length, length: Length, margins: Margins) -> PaperChoice.Fit? {
        let tolerance = sameSizeTolerance.hundredthsOfMillimetre
        if abs(page.width.hundredthsOfMillimetre - width.hundredthsOfMillimetre) <= tolerance,
           abs(page.length.hundredthsOfMillimetre - length.hundredthsOfMillimetre) <= tolerance {
            return .exact
        }
        guard page.width <= width, page.length <= length else { return nil }
        let printableWidth = width - margins.left - margins.right
        let printableLength = length - margins.top - margins.bottom
        return page.width <= printableWidth && page.length <= printableLength ? .printableArea : .media
    }

    /// `iso_a4_210x297mm (210 x 297 mm)`, or just `101.6 x 152.4 mm` without a name.
    static func describe(_ sheet: SheetMedia) -> String {
        sheet.name.map { "\($0) (\(sheet.dimensions))" } ?? sheet.dimensions
    }

    /// `80 mm roll (cut 25 to 3000 mm)`.
    static func describe(_ roll: RollMedia) -> String {
        "\(roll.width.millimetreFigure) mm roll (cut \(roll.cutLengths.lowerBound.millimetreFigure) "
            + "to \(roll.cutLengths.upperBound.millimetreFigure) mm)"
    }
}

/// Why no media could be chosen for a page.
public enum PaperError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Nothing the printer has holds the page; `available` lists what it has.
    case noFit(wanted: PageSize, available: [String])

    public var description: String {
        switch self {
        case .noFit(let wanted, let available) where available.isEmpty:
            "No paper fits a \(wanted) page: the printer reported no paper sizes. "
                + "Check that paper is loaded and contact the printer again."
        case .noFit(let wanted, let available):
            "No paper on this printer fits a \(wanted) page. The printer has: "
                + available.joined(separator: ", ") + ". "
                + "Load paper of that size, use a template made for one of these sizes, "
                + "or send the job to another printer."
        }
    }
}
