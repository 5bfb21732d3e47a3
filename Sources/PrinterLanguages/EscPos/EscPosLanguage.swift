public import PrintModel

/// ESC/POS for one printer: a job as `ESC @`, raster bands (`GS v 0`), cuts
/// (`GS V` function B), the drawer pulse (`ESC p`) and the process ID
/// (`GS ( H` fn 48); the status as the four `DLE EOT` answers.
///
/// The byte stream of a job:
///
///     ESC @
///     for each copy, for each piece:
///         GS v 0 bands of at most `bandRows` inked rows, each as wide as its ink
///         GS L x before a band whose ink starts x dots in (and GS L 0 after)
///         GS P x y once, then ESC J n     (each run of white rows, fed in dots)
///         for a line in the printer's font (`delivery = "native"`):
///             ESC J to its cells' top, ESC 3 n (n = the rows left to the line),
///             per run ESC $ x, ESC E b, GS ! s, ESC t p and the text; LF
///         GS V 65|66 0                        (unless the cut is none)
///     ESC p m t1 t2                           (when a drawer kick is asked for)
///     GS ( H 6 0 48 48 d1 d2 d3 d4            (when a process ID is asked for)
///
/// Each piece is exactly as long on paper as its bitmap is high: the bands
/// advance the paper row for row and the cut falls where the last row ends.
public struct EscPosLanguage: PrinterCommandLanguage {
    /// The printer spoken to.
    public let profile: RawProfile
    /// Rows per `GS v 0` command. Epson's printers take up to 2303 or more
    /// rows in one, but the limit differs by model; 256 is safe on all.
    public var bandRows: Int
    /// The level of drawer-kick connector pin 3 that means "drawer open".
    /// ESC/POS reports only the level; which one means open depends on the
    /// drawer's switch. High is the common wiring (and Star's default).
    public var drawerOpenLevel: PinLevel

    /// The level of a connector input.
    public enum PinLevel: Sendable, Hashable { case low, high }

    /// ESC/POS for `profile`'s printer, in bands of `bandRows` rows, reading
    /// the drawer as open when pin 3 is at `drawerOpenLevel`.
    public init(profile: RawProfile, bandRows: Int = 256, drawerOpenLevel: PinLevel = .high) {
        precondition(bandRows > 0 && bandRows <= 0xFFFF, "a band has 1 to 65535 rows")
        self.profile = profile; self.bandRows = bandRows; self.drawerOpenLevel = drawerOpenLevel
    }

    /// Always `.escpos`.
    public var language: PrinterLanguage { .escpos }

    public func encode(_ job: RawJob) throws(RawJobError) -> [UInt8] {
        let printer = profile.makeAndModel
        guard !job.pieces.isEmpty, job.copies >= 1 else { throw .nothingToPrint(printer: printer) }
        for (index, piece) in job.pieces.enumerated() where piece.width > profile.printableDots {
            throw .pieceTooWide(piece: index, width: piece.width, printer: printer, printableDots: profile.printableDots)
        }
        let kick = try job.drawerKick.map { kick throws(RawJobError) in try drawerKick(kick) }
        if job.processID != nil && !profile.processIDResponse { throw .noProcessID(printer: printer) }

        let cut = EscPosCommand.cut(profile.cutter.cut(preferring: job.cut))
        var stream = EscPosStream(codePages: EscPosCodePage.pages(for: profile))
        if job.hasDeviceText, deviceTextOptions == nil {
            throw .noDeviceText(printer: printer, language: .escpos)
        }
        for _ in 0..<job.copies {
            for (index, piece) in job.pieces.enumerated() {
                let used = piece.inkedBytesPerRow()
                var row = 0
                for line in job.deviceText(ofPiece: index) {
                    try check(line, piece: index, in: piece, after: row, used: used)
                    appendRaster(of: piece, rows: row..<(line.top + line.cellTop), used: used, to: &stream)
                    try appendLine(line, piece: index, to: &stream)
                    row = line.top + line.height
                }
                appendRaster(of: piece, rows: row..<piece.height, used: used, to: &stream)
                if let cut { stream.bytes += cut }
            }
        }
        if let kick { stream.bytes += kick }
        if let id = job.processID { stream.bytes += EscPosCommand.processID(id) }
        return stream.bytes
    }

    /// The buzzer's beep (Identify-Printer).
    public var identifySignal: [UInt8]? { EscPosCommand.beep }

    public func drawerKick(_ kick: DrawerKick) throws(RawJobError) -> [UInt8] {
        guard profile.drawerPins.contains(kick.pin) else {
            throw .noDrawerPin(kick.pin, printer: profile.makeAndModel, pins: profile.drawerPins)
        }
        guard let bytes = EscPosCommand.drawerPulse(kick) else {
            throw .drawerPulseOutOfRange(onMilliseconds: kick.onMilliseconds, offMilliseconds: kick.offMilliseconds,
                                         allowed: 2...510, language: .escpos)
        }
        return bytes
    }

    /// `DLE EOT 1`, `DLE EOT 2`, `DLE EOT 3`, `DLE EOT 4`: four one-byte answers, in that order.
    public var statusRequest: [UInt8] { (1...4).flatMap { EscPosCommand.realTimeStatus(UInt8($0)) } }

    /// The bytes up to the fourth real-time status byte, passing over any
    /// whole process-ID or automatic-status message between them.
    public func statusAnswerLength(in received: [UInt8]) -> Int? {
        var scanner = EscPosResponseScanner()
        var statusBytes = 0, consumed = 0
        for response in scanner.feed(received) {
            consumed += response.length
            if case .realTimeStatus = response { statusBytes += 1 }
            if statusBytes == 4 { return consumed }
        }
        return nil
    }

    public func status(from answer: [UInt8]) throws(StatusAnswerError) -> RawPrinterStatus {
        var scanner = EscPosResponseScanner()
        let statusBytes = scanner.feed(answer).compactMap { response -> UInt8? in
            if case .realTimeStatus(let byte) = response { byte } else { nil }
        }
        guard statusBytes.count == 4 else {
            throw StatusAnswerError(language: .escpos, problem: "expected the 4 one-byte answers to DLE EOT 1 to 4, "
                                        + "found \(statusBytes.count)", received: answer)
        }
        return EscPosRealTimeStatus(printer: statusBytes[0], offlineCause: statusBytes[1], errorCause: statusBytes[2],
                                    paperSensor: statusBytes[3]).status(drawerOpenLevel: drawerOpenLevel)
    }

    /// Inked rows as raster, every run of white rows as a feed: raster
    /// sends every white dot (72 bytes a row at 576 dots), which a serial
    /// line pays for, and a receipt is mostly white between its lines; a
    /// feed is 3 bytes (`ESC J`, after one `GS P` making its unit a dot).
    /// Without a motion unit for the head's resolution, the white rows go as
    /// raster one byte wide.
    func appendRaster(of piece: MonoBitmap, rows: Range<Int>, used: [Int], to stream: inout EscPosStream) {
        let units = EscPosCommand.motionUnits(dotsPerInch: profile.dpi)
        var row = rows.lowerBound
        while row < rows.upperBound {
            let white = used[row] == 0
            var end = row
            while end < rows.upperBound && (used[end] == 0) == white { end += 1 }
            if white, let units {
                stream.setUnits(units)
                var left = end - row
                while left > 0 {
                    stream.bytes += EscPosCommand.feed(units: min(left, 255))
                    left -= min(left, 255)
                }
            } else {
                appendBands(of: piece, rows: row..<end, used: used, to: &stream)
            }
            row = end
        }
    }

    /// Bands of at most `bandRows` rows, each only as wide as its ink:
    /// `GS v 0` prints from the left margin, so the white bytes right of
    /// the ink need not be sent, and `GS L` moves the margin to the ink's
    /// left edge, so neither need those left of it. A receipt's centred
    /// logo, QR code and headings are mostly such bytes.
    private func appendBands(of piece: MonoBitmap, rows: Range<Int>, used: [Int], to stream: inout EscPosStream) {
        let rowBytes = piece.bytesPerRow
        let units = EscPosCommand.motionUnits(dotsPerInch: profile.dpi)
        for top in stride(from: rows.lowerBound, to: rows.upperBound, by: bandRows) {
            let count = min(bandRows, rows.upperBound - top)
            let end = max(1, used[top..<(top + count)].max() ?? 1)
            var lead = units == nil ? 0 : min(end - 1, piece.leadingWhiteBytes(rows: top..<(top + count)))
            // A margin costs a GS L (4 bytes), and another to take it back.
            if lead * count <= 8 { lead = 0 }
            if let units, stream.leftMargin != lead * 8 {
                stream.setUnits(units)
                stream.bytes += EscPosCommand.leftMargin(units: lead * 8)
                stream.leftMargin = lead * 8
            }
            let width = end - lead
            guard width < rowBytes else {
                stream.bytes += EscPosCommand.rasterBand(bytesPerRow: rowBytes, rows: count,
                                                         data: piece.rows[(top * rowBytes)..<((top + count) * rowBytes)])
                continue
            }
            var data: [UInt8] = []
            data.reserveCapacity(width * count)
            piece.rows.withUnsafeBufferPointer { buffer in
                for row in top..<(top + count) {
                    data.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[(row * rowBytes + lead)..<(row * rowBytes + end)]))
                }
            }
            stream.bytes += EscPosCommand.rasterBand(bytesPerRow: width, rows: count, data: data[...])
        }
    }
}
