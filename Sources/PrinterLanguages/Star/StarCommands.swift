public import PrintModel

/// The commands all three Star languages share, and StarPRNT's raster and
/// cut (STAR Line Mode Command Specifications Rev 1.12: ESC @ 3-63,
/// ESC BEL / BEL / SUB 3-45..3-47, ESC d 3-44, ESC ACK SOH 3-53; StarPRNT
/// Command Specifications: ESC GS S).
public enum StarCommand {
    /// `ESC @`: the printer's settings back to their start (the automatic status setting stays).
    public static let initialize: [UInt8] = [0x1B, 0x40]
    /// `ESC ACK SOH`: send the automatic status now, whether or not it is sent unasked.
    public static let requestStatus: [UInt8] = [0x1B, 0x06, 0x01]
    /// `BEL`: drive external device 1 (the drawer on connector pin 2) with the pulse `ESC BEL` set.
    public static let driveDevice1: [UInt8] = [0x07]
    /// `ETB`: once everything before it has printed, the printer adds one to
    /// the ETB counter its automatic status carries (3-54).
    public static let endOfJob: [UInt8] = [0x17]
    /// `SUB`: drive external device 2 (connector pin 5), with its fixed 200 ms pulse.
    public static let driveDevice2: [UInt8] = [0x1A]

    /// The drawer pulse `ESC BEL n1 n2` takes: 1 to 127 units of 10 ms each.
    public static let pulseMilliseconds = 10...1270

    /// `ESC BEL n1 n2`: device 1's pulse, on and off, in 10 ms units
    /// (rounded up); nil outside `pulseMilliseconds`.
    public static func drawerPulse(onMilliseconds: Int, offMilliseconds: Int) -> [UInt8]? {
        guard pulseMilliseconds.contains(onMilliseconds), pulseMilliseconds.contains(offMilliseconds) else { return nil }
        return [0x1B, 0x07, UInt8((onMilliseconds + 9) / 10), UInt8((offMilliseconds + 9) / 10)]
    }

    /// The output that drives `pin`.
    public static func drive(_ pin: RawProfile.DrawerPin) -> [UInt8] { pin == .pin2 ? driveDevice1 : driveDevice2 }

    /// `ESC d n`: feed the paper to the cutter and cut, `n` = 2 full or 3
    /// partial; nil for no cut (the paper stays where it is, to be torn).
    public static func cut(_ cut: RawProfile.CutKind) -> [UInt8]? {
        switch cut {
        case .none: nil
        case .full: [0x1B, 0x64, 0x02]
        case .partial: [0x1B, 0x64, 0x03]
        }
    }

    /// `ESC GS S 1 xL xH yL yH 0 d...`: one block of raster, `bytesPerRow`
    /// bytes by `rows` dot rows, monochrome (m = 1, one block; n = 0, black).
    public static func rasterBlock(bytesPerRow: Int, rows: Int, data: some Collection<UInt8>) -> [UInt8] {
        [0x1B, 0x1D, 0x53, 0x01, UInt8(bytesPerRow & 0xFF), UInt8(bytesPerRow >> 8), UInt8(rows & 0xFF), UInt8(rows >> 8), 0x00]
            + data
    }
}
