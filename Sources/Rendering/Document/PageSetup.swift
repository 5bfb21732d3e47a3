public import PrintModel
public import Templates

/// How a template's page request meets one printer's media: the media the
/// pages are printed on, the page the content is laid out on (turned for
/// landscape), and where the paper is cut.
///
/// - A roll template uses the roll as it is; its cut policy is the template's.
/// - A fixed-size template (`page="4x6in"`) on a roll is cut at its length,
///   and the roll must be its width (within 1 mm); on a sheet printer it is
///   printed on the sheet the caller chose (see `PaperChooser`).
/// - Landscape lays the content out along the paper: its top is at the
///   media's left edge (PWG's 90 degrees counter-clockwise), so it needs a
///   known page length.
public struct PageSetup: Hashable, Sendable {
    /// The paper, as the printer feeds it.
    public var media: PageGeometry
    /// The page the content is laid out on: `media` itself, or turned for landscape.
    public var content: PageGeometry
    /// Where the paper is cut, in the content's terms.
    public var policy: CutPolicy
    public var landscape: Bool
    /// The media length of each page when it does not follow from the cut
    /// plan (landscape: the fixed page length).
    public var fixedMediaLength: Length?

    /// The most a roll may differ from a fixed-size template's width: the
    /// same tolerance the paper chooser uses (100 mm labels for a 4 in template).
    public static var widthTolerance: Length { PaperChooser.sameSizeTolerance }

    public init(request: PageRequest, media printerMedia: PageGeometry) throws(PageSetupError) {
        var media = printerMedia
        media.margins = Self.grown(media.margins, by: request.margin)
        var policy: CutPolicy
        var turned = false
        switch (request.size, media.feed) {
        case (.roll, _):
            policy = Self.policy(request.cut, fixedLength: nil)
        case (.fixed(let width, let length), .roll):
            guard abs((width - media.mediaWidth).hundredthsOfMillimetre) <= Self.widthTolerance.hundredthsOfMillimetre else {
                throw .widthMismatch(template: width, media: media.mediaWidth)
            }
            policy = Self.policy(request.cut, fixedLength: length)
        case (.fixed(let width, let length), .sheet(let sheetLength)):
            let tolerance = PaperChooser.sameSizeTolerance
            let fitsStraight = width <= media.mediaWidth + tolerance && length <= sheetLength + tolerance
            // A sheet the chooser picked turned a quarter (a 6x4 in page on 4x6 in labels).
            turned = !fitsStraight && length <= media.mediaWidth + tolerance && width <= sheetLength + tolerance
            guard fitsStraight || turned else {
                throw .doesNotFit(template: PageSize(width: width, length: length),
                                  media: PageSize(width: media.mediaWidth, length: sheetLength))
            }
            policy = .sheet
        }
        self.media = media
        self.policy = policy
        self.landscape = (request.orientation == .landscape) != turned
        guard landscape else {
            content = media
            fixedMediaLength = nil
            return
        }
        // Landscape: the content runs along the paper, so the page must have a length.
        let length: Length
        switch (policy, media.feed) {
        case (.fixed(let fixed), _): length = fixed
        case (_, .sheet(let sheet)): length = sheet
        case (_, .roll): throw .landscapeNeedsLength
        }
        fixedMediaLength = length
        content = PageGeometry(
            mediaWidth: length,
            margins: Margins(top: media.margins.left, bottom: media.margins.right,
                             left: media.margins.bottom, right: media.margins.top),
            resolution: Resolution(media.resolution.vertical, media.resolution.horizontal),
            feed: .sheet(length: media.mediaWidth))
        self.policy = .sheet
    }

    /// The template's cut, for a page of `fixedLength` when the template has a size.
    private static func policy(_ cut: PageRequest.Cut, fixedLength: Length?) -> CutPolicy {
        switch cut {
        case .afterContent(let minimum): fixedLength.map(CutPolicy.fixed) ?? .afterContent(minimum: minimum)
        case .fixed(let length): .fixed(length)
        case .sheet: fixedLength.map(CutPolicy.fixed) ?? .sheet
        }
    }

    private static func grown(_ margins: Margins, by extra: Length) -> Margins {
        Margins(top: margins.top + extra, bottom: margins.bottom + extra,
                left: margins.left + extra, right: margins.right + extra)
    }
}

/// Why a template cannot be laid out on a printer's media, and what to do.
public enum PageSetupError: Error, Hashable, Sendable, CustomStringConvertible {
    case widthMismatch(template: Length, media: Length)
    case doesNotFit(template: PageSize, media: PageSize)
    case landscapeNeedsLength

    public var description: String {
        switch self {
        case .widthMismatch(let template, let media):
            "The template is for \(template) wide media, but the printer holds a \(media) roll. "
                + "Load \(template) media, or send the job to a printer that has it."
        case .doesNotFit(let template, let media):
            "The template's page (\(template)) does not fit the printer's paper (\(media)). "
                + "Load paper at least as large, or choose another printer."
        case .landscapeNeedsLength:
            "A landscape template on a roll needs a page length: give <template> a size (page=\"3.25x8in\") "
                + "or a fixed cut (cut=\"8in\")."
        }
    }
}
