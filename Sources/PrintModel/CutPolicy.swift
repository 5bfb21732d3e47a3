/// Where a template wants the paper cut (Apple: `cutLengthForPaper`). The
/// template states it; `CutPlanner` turns it into lengths for one printer.
public enum CutPolicy: Hashable, Codable, Sendable, CustomStringConvertible {
    /// Cut right after the content (receipts): content height plus the top
    /// and bottom margins, at least `minimum` and the printer's shortest cut.
    case afterContent(minimum: Length? = nil)
    /// Cut at a fixed stock length (an 8 x 3.25 in boarding pass, a ticket).
    case fixed(Length)
    /// Use the media as it is: the sheet or label length.
    case sheet

    public var description: String {
        switch self {
        case .afterContent(let minimum?): "cut after the content, at least \(minimum)"
        case .afterContent(nil): "cut after the content"
        case .fixed(let length): "cut at \(length)"
        case .sheet: "the sheet's own length"
        }
    }
}

/// Why a cut plan could not be made. Each says what happened and what to do.
public enum CutError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A fixed length the roll cannot be cut to.
    case fixedLengthOutOfRange(Length, allowed: ClosedRange<Length>)
    /// A minimum longer than the roll's longest cut.
    case minimumOutOfRange(Length, allowed: ClosedRange<Length>)
    /// A fixed length longer than the sheet it would be printed on.
    case fixedLengthLongerThanSheet(Length, sheet: Length)
    /// `.sheet` on a roll, which has no length of its own.
    case noSheetOnRoll(width: Length)
    /// The margins leave no room for content on the longest page.
    case noRoomForContent(pageLength: Length, margins: Margins)
    /// A negative content height: a renderer bug, not a user's mistake.
    case negativeContent(Length)
    /// The content would need more pieces than a job may have.
    case tooManyPieces(needed: Int, limit: Int)

    public var description: String {
        switch self {
        case .fixedLengthOutOfRange(let length, let allowed):
            "The template asks for a cut at \(length), but this printer cuts its roll only between "
                + "\(allowed.lowerBound) and \(allowed.upperBound). "
                + "Use a length in that range, or send the job to a printer that takes this stock."
        case .minimumOutOfRange(let length, let allowed):
            "The template asks for pieces at least \(length) long, but this printer cuts its roll only between "
                + "\(allowed.lowerBound) and \(allowed.upperBound). Lower the template's minimum length."
        case .fixedLengthLongerThanSheet(let length, let sheet):
            "The template is \(length) long, but the paper is only \(sheet) long. "
                + "Load longer paper, or send the job to a printer that has it."
        case .noSheetOnRoll(let width):
            "The template asks for the paper's own size, but this printer holds a \(width) roll, which has none. "
                + "Give the template a fixed length or let it cut after its content."
        case .noRoomForContent(let pageLength, let margins):
            "A \(pageLength) page has no room for content inside its margins "
                + "(top \(margins.top), bottom \(margins.bottom)). Use a longer page or check the printer's margins."
        case .negativeContent(let height):
            "The content height \(height) is negative; the page renderer measured it wrongly. Report this as a bug."
        case .tooManyPieces(let needed, let limit):
            "The content would need \(needed) pieces of paper, more than the \(limit) a job may have. "
                + "Shorten the content or split it into several jobs."
        }
    }
}
