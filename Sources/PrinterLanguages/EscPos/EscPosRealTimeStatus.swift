/// The four one-byte answers to `DLE EOT 1` to `4` (ESC/POS "Transmit
/// real-time status"), bit by bit.
///
/// Bits from Epson's ESC/POS Command Reference, page dle_eot
/// (https://download4.epson.biz/sec_pubs/pos/reference_en/escpos/dle_eot.html),
/// as reprinted in the TM-T88III Specification (STANDARD) Rev. B pp. 73-74
/// and the TM-L60II technical information p. 1217. Every answer has bit 1 and
/// bit 4 set and bits 0 and 7 clear (binary 0xx1xx10), which tells it apart
/// from other bytes the printer sends (Appendix "Transmission status
/// identification").
public struct EscPosRealTimeStatus: Hashable, Sendable {
    /// `DLE EOT 1`, printer status.
    public var printer: UInt8
    /// `DLE EOT 2`, offline cause.
    public var offlineCause: UInt8
    /// `DLE EOT 3`, error cause.
    public var errorCause: UInt8
    /// `DLE EOT 4`, roll paper sensor.
    public var paperSensor: UInt8

    /// The four answers, in the order they were asked for.
    public init(printer: UInt8, offlineCause: UInt8, errorCause: UInt8, paperSensor: UInt8) {
        self.printer = printer; self.offlineCause = offlineCause
        self.errorCause = errorCause; self.paperSensor = paperSensor
    }

    /// True when `byte` has the fixed bits of a real-time status answer (0xx1xx10).
    public static func isStatusByte(_ byte: UInt8) -> Bool { byte & 0b1001_0011 == 0b0001_0010 }

    // DLE EOT 1, printer status.
    /// Bit 2: drawer-kick connector pin 3 is high.
    public var drawerPinHigh: Bool { printer & 0x04 != 0 }
    /// Bit 3: offline.
    public var offline: Bool { printer & 0x08 != 0 }
    /// Bit 5: waiting for online recovery.
    public var waitingForRecovery: Bool { printer & 0x20 != 0 }
    /// Bit 6: the paper feed button is being pressed.
    public var feedButtonPressed: Bool { printer & 0x40 != 0 }

    // DLE EOT 2, offline cause.
    /// Bit 2: the cover is open.
    public var coverOpen: Bool { offlineCause & 0x04 != 0 }
    /// Bit 3: paper is being fed with the feed button.
    public var feedingByButton: Bool { offlineCause & 0x08 != 0 }
    /// Bit 5: printing stopped at a paper end (the end sensor, or the
    /// near-end sensor when `ESC c 4` makes it stop printing).
    public var stoppedAtPaperEnd: Bool { offlineCause & 0x20 != 0 }
    /// Bit 6: an error occurred (its cause is in `DLE EOT 3`).
    public var errorOccurred: Bool { offlineCause & 0x40 != 0 }

    // DLE EOT 3, error cause.
    /// Bit 2: a recoverable error other than the cutter's (newer models;
    /// "undefined" and 0 on the TM-T88III generation).
    public var recoverableError: Bool { errorCause & 0x04 != 0 }
    /// Bit 3: an autocutter error, usually jammed paper; cleared after the cause is removed.
    public var cutterError: Bool { errorCause & 0x08 != 0 }
    /// Bit 5: an unrecoverable error: the printer must be switched off.
    public var unrecoverableError: Bool { errorCause & 0x20 != 0 }
    /// Bit 6: an error that clears by itself (head too hot; on some models, cover opened while printing).
    public var autoRecoverableError: Bool { errorCause & 0x40 != 0 }

    // DLE EOT 4, roll paper sensor.
    /// Bits 2 and 3: the near-end sensor sees little paper left.
    public var paperNearEnd: Bool { paperSensor & 0x0C != 0 }
    /// Bits 5 and 6: the roll end sensor sees no paper.
    public var paperEnd: Bool { paperSensor & 0x60 != 0 }

    /// The status in the terms the spooler uses. `drawerOpenLevel` says
    /// which level of pin 3 means the drawer is open.
    public func status(drawerOpenLevel: EscPosLanguage.PinLevel = .high) -> RawPrinterStatus {
        RawPrinterStatus(offline: offline, coverOpen: coverOpen, paperEnd: paperEnd || stoppedAtPaperEnd,
                         paperNearEnd: paperNearEnd, cutterError: cutterError, recoverableError: recoverableError,
                         unrecoverableError: unrecoverableError, autoRecoverableError: autoRecoverableError,
                         drawerOpen: drawerPinHigh == (drawerOpenLevel == .high))
    }
}
