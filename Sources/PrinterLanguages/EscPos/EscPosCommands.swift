public import PrintModel

/// The ESC/POS commands KioskPrint sends, byte for byte.
///
/// Source for every layout here: Epson, "ESC/POS Command Reference for TM
/// Printers" (https://download4.epson.biz/sec_pubs/pos/reference_en/escpos/),
/// the pages named at each command, cross-checked against the command
/// chapters of the TM-T88III Specification (STANDARD) Rev. B and the
/// TM-U210 / TM-J2000 programming pages (Ver. 10.0x) that reprint them.
public enum EscPosCommand {
    static let esc: UInt8 = 0x1B, gs: UInt8 = 0x1D, dle: UInt8 = 0x10, eot: UInt8 = 0x04

    /// `ESC @` (1B 40), "Initialize printer": clears the print buffer and
    /// returns every mode (margins, line spacing, print area) to its default,
    /// so a job never inherits what the previous one left. Reference page esc_atsign.
    public static let initialize: [UInt8] = [esc, 0x40]

    /// `GS v 0 m xL xH yL yH d1...dk` (1D 76 30 ...), "Print raster bit
    /// image", with m = 0 (normal size: one bit per dot, one dot row per row).
    /// x = bytes per row, y = rows; data row by row, MSB the leftmost dot,
    /// 1 = print. The paper advances exactly `y` dots. Reference page gs_lv_lo.
    public static func rasterBand(bytesPerRow: Int, rows: Int, data: ArraySlice<UInt8>) -> [UInt8] {
        precondition(bytesPerRow > 0 && bytesPerRow <= 0xFFFF && rows > 0 && rows <= 0xFFFF
                     && data.count == bytesPerRow * rows, "a raster band's header must match its data")
        var bytes: [UInt8] = [gs, 0x76, 0x30, 0x00,
                              UInt8(bytesPerRow & 0xFF), UInt8(bytesPerRow >> 8),
                              UInt8(rows & 0xFF), UInt8(rows >> 8)]
        bytes.append(contentsOf: data)
        return bytes
    }

    /// `GS P x y` (1D 50 x y), "Set horizontal and vertical motion units":
    /// 1/x and 1/y inch. With y = the head's dots per inch, `ESC J n` feeds
    /// exactly n dot rows, whatever the model's default unit (a TM-T88's is
    /// 1/360 inch on a 180 dpi head). Nil above 255 dpi, which the command
    /// cannot say. Reference page gs_cp.
    public static func motionUnits(dotsPerInch: Int) -> [UInt8]? {
        guard (1...255).contains(dotsPerInch) else { return nil }
        return [gs, 0x50, UInt8(dotsPerInch), UInt8(dotsPerInch)]
    }

    /// `ESC J n` (1B 4A n), "Print and feed paper": n vertical motion units,
    /// 0...255. Reference page esc_cj.
    public static func feed(units: Int) -> [UInt8] {
        precondition((0...255).contains(units), "ESC J feeds 0 to 255 units")
        return [esc, 0x4A, UInt8(units)]
    }

    /// `GS V m n` function B (1D 56 41 00 / 1D 56 42 00), "Select cut mode
    /// and cut paper": m = 65 feeds the paper to the cutting position plus
    /// n units and cuts fully, m = 66 the same with a partial cut (one point
    /// left uncut). With n = 0 the cut falls where the last printed dot row
    /// ends, so a piece is exactly as long as its raster. Nil for no cut.
    /// Reference page gs_cv.
    public static func cut(_ kind: RawProfile.CutKind) -> [UInt8]? {
        switch kind {
        case .none: nil
        case .full: [gs, 0x56, 65, 0]
        case .partial: [gs, 0x56, 66, 0]
        }
    }

    /// `ESC p m t1 t2` (1B 70 m t1 t2), "Generate pulse": m = 0 drives
    /// drawer-kick connector pin 2, m = 1 pin 5; the pulse is on for t1 x 2 ms
    /// and off for t2 x 2 ms (the printer uses t1 for the off time when t2 is
    /// smaller). Reference page esc_lp. Nil when a time is outside 2...510 ms.
    public static func drawerPulse(_ kick: DrawerKick) -> [UInt8]? {
        guard (2...510).contains(kick.onMilliseconds), (2...510).contains(kick.offMilliseconds) else { return nil }
        // Rounded up: a pulse never shorter than asked.
        let on = UInt8((kick.onMilliseconds + 1) / 2), off = UInt8((kick.offMilliseconds + 1) / 2)
        return [esc, 0x70, kick.pin == .pin2 ? 0 : 1, on, off]
    }

    /// `ESC ( A pL pH 48 n c t` (1B 28 41 04 00 30 n c t), "Beep the
    /// buzzer": sound pattern 1, twice, 500 ms each. Printers with a built-in
    /// buzzer (TM-m30II/III, TM-T88VI/VII, TM-T20III ...) beep; the others skip
    /// it by its length, as every `ESC (` function is framed. Reference page
    /// esc_lparen_ca_fn48. What Identify-Printer sends a raw receipt printer.
    public static let beep: [UInt8] = [esc, 0x28, 0x41, 4, 0, 48, 1, 2, 5]

    /// `DLE EOT n` (10 04 n), "Transmit real-time status", n = 1 printer
    /// status, 2 offline cause, 3 error cause, 4 roll paper sensor. The
    /// printer answers with one byte at once, even while offline, but not
    /// while its receive buffer is full. Reference page dle_eot.
    public static func realTimeStatus(_ n: UInt8) -> [UInt8] {
        precondition((1...4).contains(n), "KioskPrint asks for DLE EOT 1 to 4")
        return [dle, eot, n]
    }

    /// `GS ( H pL pH fn m d1 d2 d3 d4` with fn = 48, m = 48
    /// (1D 28 48 06 00 30 30 d1..d4), "Request transmission of response or
    /// status", function 48: the printer answers `37 22 d1..d4 00` once the
    /// data before this command has been processed, and for print data once
    /// it is printed. Reference page gs_lparen_ch_fn48; layout confirmed on
    /// the TM-J2000 programming page "GS ( H <Function 48>" (Ver. 10.05 p. 430).
    public static func processID(_ id: ProcessID) -> [UInt8] {
        [gs, 0x28, 0x48, 0x06, 0x00, 0x30, 0x30] + id.bytes
    }
}
