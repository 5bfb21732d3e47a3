/// What a simulated Star printer's sensors report, set by a test; the
/// printer answers `ESC ACK SOH` with its automatic status from it.
///
/// The status bytes follow "STAR Line Mode Command Specifications" Rev 1.12,
/// appendix 5.2.3 (the automatic status, ASB): header 1 gives the length and
/// is the only byte with bit 0 set; every byte has bits 4 and 7 clear.
public struct StarPrinterState: Sendable, Hashable {
    /// The roll is empty: the printer stops and goes off line.
    public var paperOut: Bool
    /// The roll is nearly empty (the inner near-end sensor): a warning only.
    public var paperNearEnd: Bool
    /// The cover is open: the printer stops and goes off line.
    public var coverOpen: Bool
    /// Off line for another reason.
    public var offline: Bool
    /// The drawer's compulsion switch is closed (the drawer open, as Star wires it by default).
    public var drawerOpen: Bool
    /// The autocutter jammed: the printer stops until the error is cleared.
    public var cutterError: Bool

    public init(paperOut: Bool = false, paperNearEnd: Bool = false, coverOpen: Bool = false, offline: Bool = false,
                drawerOpen: Bool = false, cutterError: Bool = false) {
        self.paperOut = paperOut; self.paperNearEnd = paperNearEnd; self.coverOpen = coverOpen
        self.offline = offline; self.drawerOpen = drawerOpen; self.cutterError = cutterError
    }

    /// A printer with paper, cover closed, on line, drawer closed.
    public static let ready = StarPrinterState()

    /// Whether the printer prints: it stops on paper out, an open cover, a cutter error, or off line.
    public var canPrint: Bool { !paperOut && !coverOpen && !offline && !cutterError }

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
