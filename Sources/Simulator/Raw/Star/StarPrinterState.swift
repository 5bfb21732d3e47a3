/// The sensors of a simulated Star printer; it answers `ESC ACK SOH` with
/// its automatic status from them.
///
/// The status bytes follow "STAR Line Mode Command Specifications" Rev 1.12,
/// appendix 5.2.3 (the automatic status, ASB): header 1 gives the length and
/// is the only byte with bit 0 set; every byte has bits 4 and 7 clear. The
/// drawer reads as Star wires it by default: `drawerOpen` is its compulsion
/// switch closed.
public typealias StarPrinterState = ReceiptPrinterState

extension ReceiptPrinterState {
    /// The 9-byte automatic status: header 1 `0x23` (9 bytes), header 2 the
    /// status version (bits 1-3 and 5), then printer status 1, error 1,
    /// error 2, the paper sensor, the slip sensor (nothing on a roll
    /// printer), the ETB counter (bits 1-3 and 5-6) and the presenter (nothing).
    func automaticStatus(version: Int, etbCounter: Int = 0) -> [UInt8] {
        let header2 = UInt8(((version & 0x07) << 1) | ((version & 0x08) << 2))
        let printerStatus: UInt8 = (coverOpen ? 0x20 : 0) | (canPrint ? 0 : 0x08) | (drawerOpen ? 0x04 : 0)
        let error1: UInt8 = cutterError ? 0x08 : 0
        let sensor: UInt8 = (paperOut ? 0x08 : 0) | (paperNearEnd || paperOut ? 0x04 : 0)
        let etb = UInt8(((etbCounter & 0x07) << 1) | ((etbCounter & 0x18) << 2))
        return [0x23, header2, printerStatus, error1, 0x00, sensor, 0x00, etb, 0x00]
    }
}
