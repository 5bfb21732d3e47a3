/// A simulated ESC/POS printer's sensors, and the status bytes it answers
/// with. The status bytes follow Epson's ESC/POS Application Programming Guide
/// (DLE EOT, GS a, GS r; seen in the TM-T88III/TM-L60II technical
/// references and Epson's online ESC/POS command reference). Bits the guide
/// fixes ("not used, fixed to on/off") are set as it fixes them, which is
/// how a host tells a DLE EOT byte (xxx1xx10) from the first ASB byte (xxx1xx00).
public typealias EscPosPrinterState = ReceiptPrinterState

extension ReceiptPrinterState {
    /// The byte `DLE EOT n` answers, for n = 1 (printer), 2 (offline cause),
    /// 3 (error cause) and 4 (roll paper sensor); nil for any other n, which
    /// the printer does not answer.
    public func realTimeStatus(_ n: UInt8) -> UInt8? {
        switch n {
        case 1:
            // Bit 1 and 4 fixed on; bit 2 drawer pin 3; bit 3 offline.
            return 0x12 | (drawerOpen ? 0x04 : 0) | (canPrint ? 0 : 0x08)
        case 2:
            // Bit 2 cover open; bit 5 printing stopped by paper end; bit 6 an error occurred.
            return 0x12 | (coverOpen ? 0x04 : 0) | (paperOut ? 0x20 : 0) | (cutterError ? 0x40 : 0)
        case 3:
            // Bit 3 autocutter error; bits 5 (unrecoverable) and 6 (auto-recoverable) stay off here.
            return 0x12 | (cutterError ? 0x08 : 0)
        case 4:
            // Bits 2,3 near-end sensor; bits 5,6 end sensor. An empty roll reads
            // as near its end too: that sensor sees no paper either.
            return 0x12 | (paperNearEnd || paperOut ? 0x0C : 0) | (paperOut ? 0x60 : 0)
        default:
            return nil
        }
    }

    /// The four bytes of Automatic Status Back (GS a): printer, error, paper
    /// sensor and a fourth byte with nothing set for a roll printer.
    public var automaticStatus: [UInt8] {
        [0x10 | (drawerOpen ? 0x04 : 0) | (canPrint ? 0 : 0x08) | (coverOpen ? 0x20 : 0),
         cutterError ? 0x08 : 0,
         (paperNearEnd || paperOut ? 0x03 : 0) | (paperOut ? 0x0C : 0),
         0]
    }

    /// The byte `GS r n` answers: n = 1 or 49 paper sensors, 2 or 50 the
    /// drawer; nil for any other n.
    func transmittedStatus(_ n: UInt8) -> UInt8? {
        switch n {
        case 1, 49: (paperNearEnd || paperOut ? 0x03 : 0) | (paperOut ? 0x0C : 0)
        case 2, 50: drawerOpen ? 0x01 : 0
        default: nil
        }
    }

    /// The ASB bytes an item enabled in `mask` (GS a n's bits: 0 drawer,
    /// 1 online/offline, 2 errors, 3 paper sensors) watches, to tell when a
    /// change must be sent.
    func watched(by mask: UInt8) -> [UInt8] {
        let status = automaticStatus
        return [mask & 1 != 0 ? status[0] & 0x04 : 0,
                mask & 2 != 0 ? status[0] & 0x28 : 0,
                mask & 4 != 0 ? status[1] : 0,
                mask & 8 != 0 ? status[2] : 0]
    }
}
