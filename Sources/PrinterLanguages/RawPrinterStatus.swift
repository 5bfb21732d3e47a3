public import PrintModel

/// A raw printer's condition, whatever language reported it (ESC/POS
/// `DLE EOT`, ZPL `~HS`), in the terms the spooler already acts on: the
/// IPP `printer-state` and `printer-state-reasons` an IPP printer would send,
/// so waiting, failover, `printers check` and the status lights treat both
/// kinds of printer alike.
public struct RawPrinterStatus: Hashable, Sendable {
    /// The printer says it is offline (ESC/POS sets this for every stop, whatever the cause).
    public var offline = false
    /// The cover is open (ESC/POS) or the print head is up (ZPL "head up").
    public var coverOpen = false
    /// The paper has run out; printing stopped.
    public var paperEnd = false
    /// The paper near-end sensor sees the roll running low; printing goes on.
    public var paperNearEnd = false
    /// Paused from the panel (ZPL).
    public var paused = false
    /// The autocutter failed, usually jammed paper (ESC/POS `DLE EOT 3` bit 3).
    public var cutterError = false
    /// An error the printer recovers from once someone fixes the cause (ESC/POS `DLE EOT 3` bit 2).
    public var recoverableError = false
    /// An error only switching the printer off and on clears (ESC/POS `DLE EOT 3` bit 5).
    public var unrecoverableError = false
    /// A pause the printer ends by itself, such as a hot head (ESC/POS `DLE EOT 3` bit 6, ZPL temperature flags).
    public var autoRecoverableError = false
    /// The ribbon has run out (ZPL, thermal transfer).
    public var ribbonOut = false
    /// The receive buffer is full (ZPL); the printer reads again as it prints.
    public var bufferFull = false
    /// The cash drawer is open; nil when the language or the answer does not say.
    public var drawerOpen: Bool?

    /// A status with the given conditions; the defaults describe a ready printer.
    public init(offline: Bool = false, coverOpen: Bool = false, paperEnd: Bool = false, paperNearEnd: Bool = false,
                paused: Bool = false, cutterError: Bool = false, recoverableError: Bool = false,
                unrecoverableError: Bool = false, autoRecoverableError: Bool = false, ribbonOut: Bool = false,
                bufferFull: Bool = false, drawerOpen: Bool? = nil) {
        self.offline = offline; self.coverOpen = coverOpen; self.paperEnd = paperEnd; self.paperNearEnd = paperNearEnd
        self.paused = paused; self.cutterError = cutterError; self.recoverableError = recoverableError
        self.unrecoverableError = unrecoverableError; self.autoRecoverableError = autoRecoverableError
        self.ribbonOut = ribbonOut; self.bufferFull = bufferFull; self.drawerOpen = drawerOpen
    }

    /// The IPP `printer-state-reasons` keywords this status amounts to, most
    /// pressing first; empty when the printer is ready.
    ///
    /// - paper end: `media-empty` (error); near end, while paper is left:
    ///   `media-low` (warning, printing goes on);
    /// - cover or head open: `cover-open` (error); paused: `paused` (error);
    /// - cutter error: `media-jam` (error), the usual cause; ribbon out:
    ///   `marker-supply-empty` (error);
    /// - recoverable and unrecoverable errors: `other` (error); a pause the
    ///   printer ends itself: `other` (warning); buffer full: `spool-area-full` (report);
    /// - `offline` (error) only when the printer is offline, or cannot print
    ///   at all, and none of the reasons above says why, since ESC/POS marks
    ///   every stop as offline.
    public var reasons: [StateReason] {
        var reasons: [StateReason] = []
        func add(_ keyword: String, _ severity: StateReason.Severity) {
            reasons.append(StateReason(keyword: keyword, severity: severity))
        }
        if paperEnd { add("media-empty", .error) }
        if coverOpen { add("cover-open", .error) }
        if cutterError { add("media-jam", .error) }
        if paused { add("paused", .error) }
        if ribbonOut { add("marker-supply-empty", .error) }
        if recoverableError || unrecoverableError { add("other", .error) }
        let explained = paperEnd || coverOpen || cutterError || paused || ribbonOut
        if (offline || unrecoverableError) && !explained { add("offline", .error) }
        if paperNearEnd && !paperEnd { add("media-low", .warning) }
        if autoRecoverableError && !recoverableError && !unrecoverableError { add("other", .warning) }
        if bufferFull { add("spool-area-full", .report) }
        return reasons
    }

    /// `stopped` when a reason keeps a job from printing until someone acts
    /// (the same rule as for IPP printers, `StateReason.needsAttention`), or
    /// the printer has an error it will not clear by itself; else `idle`.
    public var printerState: PrinterState {
        let stops = reasons.contains(where: \.needsAttention) || recoverableError || unrecoverableError
        return stops ? .stopped : .idle
    }
}

extension RawPrinterStatus {
    /// The status a printer with these IPP reasons and state would report in
    /// a raw language: what a virtual raw printer answers a host's status ask
    /// with. The inverse of ``reasons``, for any printer (IPP or raw): a
    /// stopped printer whose reasons name no cause reads as offline.
    public init(state: PrinterState, reasons: [StateReason], drawerOpen: Bool?) {
        let keywords = Set(reasons.map(\.keyword))
        self.init(drawerOpen: drawerOpen)
        paperEnd = keywords.contains("media-empty") || keywords.contains("media-needed")
        paperNearEnd = keywords.contains("media-low")
        coverOpen = keywords.contains("cover-open") || keywords.contains("door-open")
        cutterError = keywords.contains("media-jam")
        paused = keywords.contains("paused")
        ribbonOut = keywords.contains("marker-supply-empty")
        let explained = paperEnd || coverOpen || cutterError || paused || ribbonOut
        offline = keywords.contains("offline") || keywords.contains("unreachable") || keywords.contains("shutdown")
            || state == .unreachable || (state == .stopped && !explained)
        recoverableError = reasons.contains { $0.keyword == "other" && $0.severity == .error }
    }
}
