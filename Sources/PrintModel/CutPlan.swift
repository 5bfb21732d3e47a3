/// One piece of paper a job prints: its length and the slice of the content
/// it carries.
///
/// `length` is the one value used everywhere: the raster page height
/// (`heightInDots`), the PDF page size, and the IPP `media-col` y-dimension
/// (`yDimension`). Nothing recomputes it from the content.
public struct CutPiece: Hashable, Codable, Sendable {
    /// The piece's length along the paper.
    public var length: Length
    /// The slice of the content drawn on this piece, as offsets from the
    /// content's top; drawn starting at the top margin.
    public var content: Range<Length>
    /// The raster page height: `length` at the vertical resolution.
    public var heightInDots: Int
    /// Where the content may be drawn on this piece, in raster dots.
    public var printableDots: DotRect

    public init(length: Length, content: Range<Length>, heightInDots: Int, printableDots: DotRect) {
        self.length = length; self.content = content
        self.heightInDots = heightInDots; self.printableDots = printableDots
    }

    /// The IPP `media-col` `media-size` `y-dimension`: `length` in hundredths of a millimetre.
    public var yDimension: Int { length.hundredthsOfMillimetre }

    /// How much content this piece carries.
    public var contentHeight: Length { content.upperBound - content.lowerBound }
}

/// The decided pieces for one job on one printer: `CutPlanner`'s answer.
public struct CutPlan: Hashable, Codable, Sendable {
    public var pieces: [CutPiece]
    /// The page the pieces are cut from (width, margins, resolution).
    public var geometry: PageGeometry
    public var policy: CutPolicy

    public init(pieces: [CutPiece], geometry: PageGeometry, policy: CutPolicy) {
        self.pieces = pieces; self.geometry = geometry; self.policy = policy
    }

    /// True when the content did not fit one piece and was split.
    public var isSplit: Bool { pieces.count > 1 }

    /// All the paper the job uses, end to end.
    public var totalLength: Length { pieces.reduce(.zero) { $0 + $1.length } }

    /// The content covered, end to end: the content height when nothing was lost.
    public var contentCovered: Length { pieces.reduce(.zero) { $0 + $1.contentHeight } }
}
