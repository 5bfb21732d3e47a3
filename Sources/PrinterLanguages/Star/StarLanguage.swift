public import PrintModel

/// What Star Graphic mode, Star Line mode and StarPRNT have in common, so
/// each of their encoders is only its raster and its cut:
///
/// - the status: `ESC ACK SOH`, answered with Star's automatic status
///   (`StarAutomaticStatus`), which every Star receipt printer of the three
///   sends ("STAR Line Mode Command Specifications" appendix 5.2.3; the TSP100
///   lists `ESC ACK SOH` in "STAR Graphic Mode Command Specifications");
/// - the drawer: `ESC BEL n1 n2` sets device 1's pulse, `BEL` drives device 1
///   (connector pin 2), `SUB` device 2 (pin 5, its pulse fixed at 200 ms);
/// - the checks on a job before it is encoded.
///
/// Every job ends with `ETB`: the printer adds one to the ETB counter in its
/// automatic status once all before it has printed, so a job counts as
/// printed when the counter has moved (`RawPrinterSession.send`), as an
/// Epson's does when its process ID comes back.
public protocol StarCommandLanguage: PrinterCommandLanguage {}

extension StarCommandLanguage {
    /// Star's buzzer is an option few receipt printers have: no identify signal.
    public var identifySignal: [UInt8]? { nil }

    public func drawerKick(_ kick: DrawerKick) throws(RawJobError) -> [UInt8] {
        StarCommand.initialize + (try drawerPulse(kick)) + StarCommand.drive(kick.pin)
    }

    /// `ESC BEL n1 n2` for `kick`, after checking the printer has its output.
    func drawerPulse(_ kick: DrawerKick) throws(RawJobError) -> [UInt8] {
        guard profile.drawerPins.contains(kick.pin) else {
            throw .noDrawerPin(kick.pin, printer: profile.makeAndModel, pins: profile.drawerPins)
        }
        guard let pulse = StarCommand.drawerPulse(onMilliseconds: kick.onMilliseconds, offMilliseconds: kick.offMilliseconds) else {
            throw .drawerPulseOutOfRange(onMilliseconds: kick.onMilliseconds, offMilliseconds: kick.offMilliseconds,
                                         allowed: StarCommand.pulseMilliseconds, language: language)
        }
        return pulse
    }

    /// Refuses a job no Star printer can take: no pieces, a piece wider than
    /// the head, a process ID; returns the drawer pulse to set first, if any.
    func check(_ job: RawJob) throws(RawJobError) -> [UInt8]? {
        let printer = profile.makeAndModel
        guard !job.pieces.isEmpty, job.copies >= 1 else { throw .nothingToPrint(printer: printer) }
        for (index, piece) in job.pieces.enumerated() where piece.width > profile.printableDots {
            throw .pieceTooWide(piece: index, width: piece.width, printer: printer, printableDots: profile.printableDots)
        }
        if job.processID != nil { throw .noProcessID(printer: printer) }
        if job.hasDeviceText { throw .noDeviceText(printer: printer, language: language) }
        return try job.drawerKick.map { kick throws(RawJobError) in try drawerPulse(kick) }
    }

    /// A job whose pieces are each followed by `ESC d`, as Star Line mode and
    /// StarPRNT cut: `ESC @` and the drawer pulse, each copy's pieces written
    /// by `appendPiece` and cut, then the drawer and the closing `ETB`.
    func encodeCutByESCd(_ job: RawJob, appendPiece: (MonoBitmap, inout [UInt8]) -> Void) throws(RawJobError) -> [UInt8] {
        let pulse = try check(job)
        let cut = StarCommand.cut(profile.cutter.cut(preferring: job.cut))
        var bytes = StarCommand.initialize + (pulse ?? [])
        for _ in 0..<job.copies {
            for piece in job.pieces {
                appendPiece(piece, &bytes)
                if let cut { bytes += cut }
            }
        }
        if let kick = job.drawerKick { bytes += StarCommand.drive(kick.pin) }
        return bytes + StarCommand.endOfJob
    }

    /// `ESC ACK SOH`.
    public var statusRequest: [UInt8] { StarCommand.requestStatus }

    /// Up to the end of the first whole automatic status (an XON, XOFF or
    /// other byte before its header is passed over).
    public func statusAnswerLength(in received: [UInt8]) -> Int? {
        StarAutomaticStatus.first(in: received)?.end
    }

    /// The ETB counter.
    public func printedCount(in answer: [UInt8]) -> Int? { StarAutomaticStatus.first(in: answer)?.status.etbCounter }
    /// Every Star job ends with `ETB`.
    public var keepsPrintedCount: Bool { true }

    public func status(from answer: [UInt8]) throws(StatusAnswerError) -> RawPrinterStatus {
        guard let found = StarAutomaticStatus.first(in: answer) else {
            throw StatusAnswerError(language: language, problem: "expected Star's automatic status (7 to 15 bytes, the first "
                                        + "with bit 0 set and bits 4 and 7 clear)", received: answer)
        }
        return found.status.status
    }
}
