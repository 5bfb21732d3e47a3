/// A job's pieces as Star Graphic mode bytes (for the TSP100 family, which
/// prints raster only):
///
///     ESC @, ESC BEL n1 n2                    (the drawer pulse, when a kick is asked for)
///     ESC * r R, ESC * r A                    (raster mode, from its start values)
///     ESC * r Q 0 NUL, ESC * r P 0 NUL        (fastest, continuous: a roll has no page length)
///     ESC * r F n NUL, ESC * r E 1 NUL        (each ESC FF cuts; the document's end adds nothing)
///     for each copy, for each piece:
///         b n1 n2 row...                      (trailing white bytes left off)
///         ESC * r Y n NUL                     (each run of white rows, as a feed)
///         ESC FF NUL                          (print, feed to the cutter, cut)
///     ESC * r D n NUL                         (the drawer, after the last cut)
///     ESC * r B                               (quit raster mode)
///
/// Each piece is as long on paper as its bitmap is high: every row is sent
/// or fed, the white ones at the end too, and the cut falls where it ends.
public enum StarGraphicRaster {
    /// The longest feed one `ESC * r Y` is given (Star's own samples use 1000).
    static let longestFeed = 1000

    /// The bytes of `pieces`, each cut with `cut`, `copies` times; `drawer` (1, 2 or 3) driven after the last.
    public static func encode(pieces: [MonoBitmap], cut: StarGraphicCommand.EndMode, copies: Int = 1,
                              drawer: (outputs: Int, pulse: [UInt8])? = nil) -> [UInt8] {
        var bytes = StarGraphicCommand.initialize
        if let drawer { bytes += drawer.pulse }
        bytes += StarGraphicCommand.initializeRaster + StarGraphicCommand.enterRaster
        bytes += StarGraphicCommand.quality(0) + StarGraphicCommand.pageLength(0)
        bytes += StarGraphicCommand.formFeedMode(cut) + StarGraphicCommand.endOfDocument(.printOnly)
        for _ in 0..<max(1, copies) {
            for piece in pieces {
                appendRows(of: piece, to: &bytes)
                bytes += StarGraphicCommand.formFeed
            }
        }
        if let drawer { bytes += StarGraphicCommand.drawer(drawer.outputs) }
        return bytes + StarGraphicCommand.quitRaster
    }

    /// Rows with ink as `b` commands, trailing white bytes left off; white rows as feeds.
    static func appendRows(of piece: MonoBitmap, to bytes: inout [UInt8]) {
        var white = 0
        for y in 0..<piece.height {
            let row = piece.row(y)
            guard let last = row.lastIndex(where: { $0 != 0 }) else { white += 1; continue }
            appendFeed(white, to: &bytes)
            white = 0
            bytes += StarGraphicCommand.row(row[row.startIndex...last])
        }
        appendFeed(white, to: &bytes)
    }

    static func appendFeed(_ dots: Int, to bytes: inout [UInt8]) {
        var left = dots
        while left > 0 {
            bytes += StarGraphicCommand.feed(dots: min(left, longestFeed))
            left -= min(left, longestFeed)
        }
    }
}
