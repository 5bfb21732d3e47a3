import Foundation
public import PrintModel

// The commands a line of text in the printer's font takes. Byte values are
// from Epson's ESC/POS command reference (pages esc_3, esc_dollar, esc_ce,
// gs_exclamation, lf).
extension EscPosCommand {
    /// `ESC 3 n`: line spacing of n vertical motion units (a dot after `GS P`), 0...255.
    public static func lineSpacing(units: Int) -> [UInt8] {
        precondition((0...255).contains(units), "ESC 3 takes 0 to 255 units")
        return [esc, 0x33, UInt8(units)]
    }

    /// `ESC $ nL nH`: the next character starts `units` horizontal motion
    /// units (a dot after `GS P`) from the left margin.
    public static func absolutePosition(units: Int) -> [UInt8] {
        precondition((0...0xFFFF).contains(units), "ESC $ takes 0 to 65535 units")
        return [esc, 0x24, UInt8(units & 0xFF), UInt8(units >> 8)]
    }

    /// `ESC E n`: emphasized (bold) on or off.
    public static func emphasized(_ on: Bool) -> [UInt8] { [esc, 0x45, on ? 1 : 0] }

    /// `GS ! n`: characters magnified `width` times across (bits 4-6) and
    /// `height` times down (bits 0-2), each 1...8.
    public static func characterSize(width: Int, height: Int) -> [UInt8] {
        precondition((1...8).contains(width) && (1...8).contains(height), "GS ! magnifies 1 to 8 times")
        return [gs, 0x21, UInt8(width - 1) << 4 | UInt8(height - 1)]
    }

    /// `GS L nL nH`: the left margin, `units` horizontal motion units (a dot
    /// after `GS P`) from the printable area's left edge; raster images and
    /// text start there. Reference page gs_cl.
    public static func leftMargin(units: Int) -> [UInt8] {
        precondition((0...0xFFFF).contains(units), "GS L takes 0 to 65535 units")
        return [gs, 0x4C, UInt8(units & 0xFF), UInt8(units >> 8)]
    }

    /// `LF`: prints the line buffer and feeds one line (the `ESC 3` spacing).
    public static let lineFeed: [UInt8] = [0x0A]
}

extension EscPosCodePage {
    /// The pages KioskPrint prints text in on `profile`'s printer, in the
    /// order they are tried. Epson's TM series has all five (the TM-T20 and
    /// TM-T88 profiles of escpos-printer-db list them at these numbers); any
    /// other ESC/POS printer is given PC437 alone, the page `ESC t 0` selects
    /// on every ESC/POS printer, so text another page would need is drawn.
    public static func pages(for profile: RawProfile) -> [EscPosCodePage] {
        profile.make.caseInsensitiveCompare("Epson") == .orderedSame ? [.pc437, .pc850, .wpc1252, .pc866, .pc858] : [.pc437]
    }
}
