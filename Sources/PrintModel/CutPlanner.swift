/// Decides where the paper is cut for a job (Apple: `cutLengthForPaper`).
///
/// - `.afterContent` on a roll: content height + top and bottom margins,
///   raised to the template's minimum and the roll's shortest cut.
/// - `.fixed` on a roll: that length, which must be in the roll's range.
/// - `.sheet`, and any policy on a sheet printer: the sheet's length (a sheet
///   printer cannot cut; a fixed length must fit the sheet).
///
/// Content longer than one piece holds (the longest page minus the margins,
/// or the fixed length minus the margins) is split over several pieces, never
/// truncated. Split rule: each piece takes as much as fits; it ends at the
/// last allowed break (e.g. between two lines) inside what fits, else exactly
/// where the space runs out (a hard split).
public enum CutPlanner {
    /// More pieces than this is a runaway layout, not a receipt.
    public static let maximumPieces = 1000

    /// The pieces for `contentHeight` of content under `policy` on `geometry`.
    ///
    /// - Parameter breaks: offsets from the content's top where a split may
    ///   fall (between lines, between items). Empty: split anywhere.
    public static func plan(contentHeight: Length, policy: CutPolicy, geometry: PageGeometry,
                            breaks: [Length] = []) throws(CutError) -> CutPlan {
        guard contentHeight >= .zero else { throw .negativeContent(contentHeight) }
        let vertical = geometry.margins.top + geometry.margins.bottom

        // The capacity of one piece, and the length of a piece carrying `h` of content.
        let capacity: Length
        let pieceLength: (Length) -> Length
        switch (policy, geometry.feed) {
        case (.afterContent(let minimum), .roll(let range)):
            if let minimum, minimum > range.upperBound { throw .minimumOutOfRange(minimum, allowed: range) }
            let shortest = max(range.lowerBound, minimum ?? .zero)
            capacity = range.upperBound - vertical
            // A full piece is content + margins <= the longest cut, so only the lower clamp applies.
            pieceLength = { max(shortest, $0 + vertical) }
        case (.fixed(let length), .roll(let range)):
            guard range.contains(length) else { throw .fixedLengthOutOfRange(length, allowed: range) }
            capacity = length - vertical
            pieceLength = { _ in length }
        case (.sheet, .roll):
            throw .noSheetOnRoll(width: geometry.mediaWidth)
        case (.fixed(let length), .sheet(let sheet)):
            guard length <= sheet else { throw .fixedLengthLongerThanSheet(length, sheet: sheet) }
            // The stock is drawn at the top of the sheet (the sheet is what
            // feeds), with the same margins as on a roll.
            capacity = length - vertical
            pieceLength = { _ in sheet }
        case (.afterContent, .sheet(let sheet)), (.sheet, .sheet(let sheet)):
            capacity = sheet - vertical
            pieceLength = { _ in sheet }
        }
        guard capacity > .zero else {
            throw .noRoomForContent(pageLength: geometry.longestPage, margins: geometry.margins)
        }

        let slices = try split(contentHeight, capacity: capacity, breaks: breaks)
        let pieces = slices.map { slice in
            let length = pieceLength(slice.upperBound - slice.lowerBound)
            return CutPiece(length: length, content: slice,
                            heightInDots: geometry.heightInDots(pageLength: length),
                            printableDots: geometry.printableDots(pageLength: length))
        }
        return CutPlan(pieces: pieces, geometry: geometry, policy: policy)
    }

    /// `total` cut into consecutive slices of at most `capacity`, each ending
    /// at the last break that fits, else at the capacity. Always at least one
    /// slice (an empty content still prints one piece).
    static func split(_ total: Length, capacity: Length, breaks: [Length]) throws(CutError) -> [Range<Length>] {
        // Each slice takes at least one break-free stretch, so this bounds the count.
        let needed = (total.hundredthsOfMillimetre + capacity.hundredthsOfMillimetre - 1)
            / capacity.hundredthsOfMillimetre
        guard needed <= maximumPieces else { throw .tooManyPieces(needed: needed, limit: maximumPieces) }

        let usable = breaks.filter { $0 > .zero && $0 < total }.sorted()
        var slices: [Range<Length>] = []
        var start = Length.zero
        while total - start > capacity {
            let limit = start + capacity
            let end = usable.last { $0 > start && $0 <= limit } ?? limit
            slices.append(start..<end)
            start = end
            // Splitting at breaks can take more pieces than the hard-split count.
            guard slices.count < maximumPieces else {
                throw .tooManyPieces(needed: slices.count + 1, limit: maximumPieces)
            }
        }
        slices.append(start..<total)
        return slices
    }
}
