public import Foundation
public import PrintModel
public import PrinterLanguages

/// A job drawn for one printer, ready to send: the bytes, their format, and
/// the media and finishings the IPP request carries.
public struct PreparedDocument: Sendable {
    public var data: Data
    public var format: DocumentFormat
    /// The media the pages were drawn for.
    public var media: PageGeometry
    /// Each piece's length: the cut lengths, in order.
    public var cutLengths: [Length]
    /// The `media-col` y-dimension: the longest piece (each raster page
    /// header carries its own exact length and cut).
    public var yDimension: Length { cutLengths.max() ?? media.longestPage }
    /// `finishings` for the cut, when the printer lists a trim (roll printers).
    public var finishings: [Trim]
    /// Warnings from drawing, kept with the job.
    public var warnings: [String]
    /// How the knife cuts, when the template says (`cut-style`).
    public var cutStyle: CutStyle?
    /// Why the pages were drawn on other paper than the template asks for
    /// (labels loaded where a roll template wants the roll), or nil.
    public var paperChange: String?
    /// The template asks for the cash drawer after the cut (`drawer="open"`).
    public var opensDrawer = false
    /// For a raw printer, the pieces as the head prints them (the printable
    /// width, one bitmap per cut): the channel encodes them with the job's
    /// copies, cut and drawer; `data` is then empty.
    public var rawPieces: [MonoBitmap]?
    /// Per raw piece, the lines its printer prints in its own font (their
    /// rows blank in the piece); empty when everything is drawn.
    public var rawText: [[DeviceTextLine]] = []
}
