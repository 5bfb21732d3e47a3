public import PrintModel

/// Star Line mode for one printer (TSP650II, TSP700II, TSP800II, FVP10):
/// each piece in the line mode's raster extension, as Star's CUPS filter
/// sends it to these models, then cut with the line mode's own `ESC d`.
///
/// The byte stream of a job:
///
///     ESC @, ESC BEL n1 n2                    (the drawer pulse, when a kick is asked for)
///     for each copy, for each piece:
///         ESC * r R, ESC * r A                (raster mode, from its start values)
///         ESC * r Q 0 NUL, ESC * r P 0 NUL    (fastest, continuous)
///         ESC * r E 1 NUL                     (quitting prints what is left, and no more)
///         b n1 n2 row..., ESC * r Y n NUL     (`StarRasterRows`)
///         ESC * r B                           (back to line mode)
///         ESC d 3 | ESC d 2                   (feed to the cutter and cut, partial or full; nothing to tear)
///     BEL | SUB                               (the drawer, after the last cut)
///     ETB                                     (the ETB counter goes up once all of it has printed)
public struct StarLineLanguage: StarCommandLanguage {
    /// The printer spoken to.
    public let profile: RawProfile

    public init(profile: RawProfile) { self.profile = profile }

    /// Always `.starLine`.
    public var language: PrinterLanguage { .starLine }

    public func encode(_ job: RawJob) throws(RawJobError) -> [UInt8] {
        try encodeCutByESCd(job) { piece, bytes in
            bytes += StarRasterCommand.initializeRaster + StarRasterCommand.enterRaster
            bytes += StarRasterCommand.quality(0) + StarRasterCommand.pageLength(0)
            bytes += StarRasterCommand.endOfDocument(.printOnly)
            StarRasterRows.append(piece, to: &bytes)
            bytes += StarRasterCommand.quitRaster
        }
    }
}
