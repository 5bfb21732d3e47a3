public import PrintModel

/// ZPL II for one printer: each piece as one label format, its bitmap in
/// `^GFA` graphic fields with ZPL's ASCII compression; the status from `~HS`.
///
/// One label:
///
///     ^XA
///     ^LH0,0                   label home at the top left: a home left by another program is not inherited
///     ^PW<printable dots>
///     ^LL<bitmap height>
///     ^MNN | ^MNY | ^MNM       continuous, gap (web) or mark media, from the profile
///     ^MMC | ^MMT              cutter after each label, or tear-off
///     ^FO0,<y>^GFA,<n>,<n>,<row bytes>,<data>^FS   one field per band of rows
///     ^PQ<copies>
///     ^XZ
///
/// Commands from Zebra's "ZPL II Programming Guide" (docs.zebra.com, zpl-pg),
/// pages ^XA, ^LH, ^PW, ^LL, ^MN, ^MM, ^FO, ^GF, ^FS, ^PQ, ^XZ. `^GF`'s byte
/// counts are limited to 99999, so a label whose bitmap is larger (a 4 x 6 in
/// label at 203 dpi is 124236 bytes) is sent as several fields stacked with `^FO`.
public struct ZPLLanguage: PrinterCommandLanguage {
    /// The printer spoken to.
    public let profile: RawProfile

    /// ZPL II for `profile`'s printer.
    public init(profile: RawProfile) { self.profile = profile }

    /// Always `.zpl`.
    public var language: PrinterLanguage { .zpl }

    /// `^GF`'s largest byte count (parameters b and c: 1 to 99999).
    public static let graphicFieldByteLimit = 99_999
    /// `^LL`'s largest label length, in dots (1 to 32000).
    public static let labelLengthLimit = 32_000

    public func encode(_ job: RawJob) throws(RawJobError) -> [UInt8] {
        let printer = profile.makeAndModel
        guard !job.pieces.isEmpty, job.copies >= 1 else { throw .nothingToPrint(printer: printer) }
        for (index, piece) in job.pieces.enumerated() {
            if piece.width > profile.printableDots {
                throw .pieceTooWide(piece: index, width: piece.width, printer: printer, printableDots: profile.printableDots)
            }
            if piece.height > Self.labelLengthLimit {
                throw .pieceTooLong(piece: index, height: piece.height, printer: printer, limit: Self.labelLengthLimit)
            }
        }
        if let kick = job.drawerKick { _ = try drawerKick(kick) }
        if job.processID != nil { throw .noProcessID(printer: printer) }
        if job.hasDeviceText { throw .noDeviceText(printer: printer, language: .zpl) }

        let cutter = profile.cutter.cut(preferring: job.cut) == .none ? "T" : "C"
        // Copies stay collated, as on a receipt printer: one label asks for
        // them itself (^PQ), a run of labels is sent again for each copy.
        let runs = job.pieces.count == 1 ? 1 : job.copies
        let quantity = job.pieces.count == 1 ? job.copies : 1
        var text = ""
        for _ in 0..<runs {
            for piece in job.pieces {
                text += "^XA\n^LH0,0\n^PW\(profile.printableDots)\n^LL\(piece.height)\n"
                text += "^MN\(Self.trackingLetter(profile.mediaTracking))\n^MM\(cutter)\n"
                text += graphicFields(piece)
                text += "^PQ\(quantity)\n^XZ\n"
            }
        }
        return Array(text.utf8)
    }

    /// ZPL has no beep, and a fed label would be a wasted label: nothing.
    public var identifySignal: [UInt8]? { nil }

    /// Zebra label printers have no cash drawer port.
    public func drawerKick(_ kick: DrawerKick) throws(RawJobError) -> [UInt8] {
        throw .noDrawerPin(kick.pin, printer: profile.makeAndModel, pins: [])
    }

    /// `~HS`, "Host Status Return".
    public var statusRequest: [UInt8] { Array("~HS".utf8) }

    /// The bytes up to the third ETX, and the CR LF after it when already received.
    public func statusAnswerLength(in received: [UInt8]) -> Int? {
        var frames = 0
        for (index, byte) in received.enumerated() where byte == ZPLHostStatus.etx {
            frames += 1
            guard frames == 3 else { continue }
            var end = index + 1
            for terminator: UInt8 in [0x0D, 0x0A] where end < received.count && received[end] == terminator { end += 1 }
            return end
        }
        return nil
    }

    public func status(from answer: [UInt8]) throws(StatusAnswerError) -> RawPrinterStatus {
        try ZPLHostStatus(answer: answer).status
    }

    /// `^MN`'s letter for the media: N continuous, Y web (gap or notch), M mark.
    static func trackingLetter(_ tracking: RawProfile.MediaTracking) -> String {
        switch tracking {
        case .continuous: "N"
        case .gap: "Y"
        case .mark: "M"
        }
    }

    private func graphicFields(_ piece: MonoBitmap) -> String {
        let rowBytes = piece.bytesPerRow
        let bandRows = max(1, Self.graphicFieldByteLimit / rowBytes)
        var text = ""
        for top in stride(from: 0, to: piece.height, by: bandRows) {
            let rows = min(bandRows, piece.height - top)
            let bytes = Array(piece.rows[(top * rowBytes)..<((top + rows) * rowBytes)])
            let total = bytes.count
            text += "^FO0,\(top)^GFA,\(total),\(total),\(rowBytes),"
                + ZPLGraphicCompression.encode(bytes, bytesPerRow: rowBytes) + "^FS\n"
        }
        return text
    }
}
