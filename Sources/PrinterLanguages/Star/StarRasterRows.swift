/// A piece's dot rows as Star raster commands: rows with ink as `b n1 n2`
/// with their trailing white bytes left off, runs of white rows as feeds
/// (`ESC * r Y`, at most `longestFeed` each), as Star's CUPS filter and SDK
/// samples send them. Every row is sent or fed, the white ones at the end
/// too, so the piece is exactly as long on paper as its bitmap is high.
enum StarRasterRows {
    /// The longest feed one `ESC * r Y` is given (Star's own samples use 1000).
    static let longestFeed = 1000

    static func append(_ piece: MonoBitmap, to bytes: inout [UInt8]) {
        var white = 0
        let used = piece.inkedBytesPerRow()
        for y in 0..<piece.height {
            guard used[y] > 0 else { white += 1; continue }
            appendFeed(white, to: &bytes)
            white = 0
            bytes += StarRasterCommand.row(piece.row(y).prefix(used[y]))
        }
        appendFeed(white, to: &bytes)
    }

    static func appendFeed(_ dots: Int, to bytes: inout [UInt8]) {
        var left = dots
        while left > 0 {
            bytes += StarRasterCommand.feed(dots: min(left, longestFeed))
            left -= min(left, longestFeed)
        }
    }
}
