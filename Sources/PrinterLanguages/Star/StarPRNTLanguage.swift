public import PrintModel

/// StarPRNT for one printer (mC-Print2, mC-Print3, mPOP, TSP100IV): each
/// piece as `ESC GS S` raster blocks, then `ESC d` to cut.
///
/// The byte stream of a job:
///
///     ESC @, ESC BEL n1 n2                    (the drawer pulse, when a kick is asked for)
///     for each copy, for each piece:
///         ESC GS S 1 xL xH yL yH 0 data       (blocks of at most `blockRows` rows)
///         ESC d 3 | ESC d 2                   (feed to the cutter and cut, partial or full)
///     BEL | SUB                               (the drawer, after the last cut)
///     ETB                                     (the ETB counter goes up once all of it has printed)
///
/// A block is only as wide as the widest row in it needs: ink ends well short
/// of the edge on most receipt lines, and a run of white rows is a block one
/// byte wide, a byte a row. Feeding instead would need a feed in dots, and the
/// StarPRNT feeds documented publicly count in millimetres; a block keeps
/// every piece exactly as long as its bitmap.
public struct StarPRNTLanguage: StarCommandLanguage {
    /// The printer spoken to.
    public let profile: RawProfile
    /// Rows per `ESC GS S` block at most, so a long receipt is a run of
    /// blocks the printer can print as they come.
    public var blockRows: Int

    public init(profile: RawProfile, blockRows: Int = 256) {
        precondition(blockRows > 0 && blockRows <= 0xFFFF, "a block has 1 to 65535 rows")
        self.profile = profile; self.blockRows = blockRows
    }

    /// Always `.starPRNT`.
    public var language: PrinterLanguage { .starPRNT }

    public func encode(_ job: RawJob) throws(RawJobError) -> [UInt8] {
        try encodeCutByESCd(job) { piece, bytes in appendBlocks(of: piece, to: &bytes) }
    }

    /// Runs of white rows and runs of inked rows, each as blocks as wide as their widest row.
    private func appendBlocks(of piece: MonoBitmap, to bytes: inout [UInt8]) {
        let used = piece.inkedBytesPerRow()
        var top = 0
        while top < piece.height {
            let white = used[top] == 0
            var end = top
            while end < piece.height, end - top < blockRows, (used[end] == 0) == white { end += 1 }
            let width = max(1, used[top..<end].max() ?? 1)
            var data: [UInt8] = []
            data.reserveCapacity(width * (end - top))
            for y in top..<end { data += piece.row(y).prefix(width) }
            bytes += StarCommand.rasterBlock(bytesPerRow: width, rows: end - top, data: data)
            top = end
        }
    }
}
