public import PrintModel

/// Star Graphic mode for one printer of Star's TSP100 family before the
/// TSP100IV (TSP113, TSP143, TSP143II, TSP143III): raster only, as Star's
/// CUPS filter `rastertostar` drives them.
///
/// The byte stream of a job:
///
///     ESC @, ESC BEL n1 n2                    (the drawer pulse, when a kick is asked for)
///     ESC * r R, ESC * r A                    (raster mode, from its start values)
///     ESC * r Q 0 NUL, ESC * r P 0 NUL        (fastest, continuous: a roll has no page length)
///     ESC * r F n NUL, ESC * r E 1 NUL        (each ESC FF cuts; the document's end adds nothing)
///     for each copy, for each piece:
///         b n1 n2 row..., ESC * r Y n NUL     (`StarRasterRows`)
///         ESC FF NUL                          (print, feed to the cutter, cut: F mode 13 partial, 9 full, 3 tear bar)
///     ESC * r D n NUL                         (the drawer, after the last cut)
///     ESC * r B                               (quit raster mode)
///     ETB                                     (the ETB counter goes up once all of it has printed)
public struct StarGraphicLanguage: StarCommandLanguage {
    /// The printer spoken to.
    public let profile: RawProfile

    public init(profile: RawProfile) { self.profile = profile }

    /// Always `.starGraphic`.
    public var language: PrinterLanguage { .starGraphic }

    public func encode(_ job: RawJob) throws(RawJobError) -> [UInt8] {
        let pulse = try check(job)
        var bytes = StarCommand.initialize + (pulse ?? [])
        bytes += StarRasterCommand.initializeRaster + StarRasterCommand.enterRaster
        bytes += StarRasterCommand.quality(0) + StarRasterCommand.pageLength(0)
        bytes += StarRasterCommand.formFeedMode(.init(profile.cutter.cut(preferring: job.cut)))
        bytes += StarRasterCommand.endOfDocument(.printOnly)
        for _ in 0..<job.copies {
            for piece in job.pieces {
                StarRasterRows.append(piece, to: &bytes)
                bytes += StarRasterCommand.formFeed
            }
        }
        if let kick = job.drawerKick { bytes += StarRasterCommand.drawer(kick.pin == .pin2 ? 1 : 2) }
        return bytes + StarRasterCommand.quitRaster + StarCommand.endOfJob
    }
}
