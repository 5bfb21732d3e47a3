// Byte streams written in the tests from the makers' references, named so a
// test reads as the printer's manual does. Only the simulator is under
// test: nothing here comes from KioskPrint's encoders.

/// ESC/POS commands (Epson ESC/POS command reference).
enum EscPos {
    /// ESC @: initialize.
    static let initialize: [UInt8] = [0x1B, 0x40]
    /// LF: print and feed one line.
    static let lineFeed: [UInt8] = [0x0A]

    /// GS v 0 m xL xH yL yH d1..dk: raster, `widthBytes` bytes by `rows.count / widthBytes` rows.
    static func raster(widthBytes: Int, _ data: [UInt8], mode: UInt8 = 0) -> [UInt8] {
        let height = data.count / widthBytes
        return [0x1D, 0x76, 0x30, mode, UInt8(widthBytes & 0xFF), UInt8(widthBytes >> 8),
                UInt8(height & 0xFF), UInt8(height >> 8)] + data
    }

    /// GS V m: cut where the paper is (0/48 full, 1/49 partial).
    static func cut(_ m: UInt8) -> [UInt8] { [0x1D, 0x56, m] }
    /// GS V m n: feed to the cut position plus n motion units, then cut (65 full, 66 partial).
    static func feedAndCut(_ m: UInt8, _ n: UInt8) -> [UInt8] { [0x1D, 0x56, m, n] }
    /// ESC J n: print and feed n motion units.
    static func feed(units n: UInt8) -> [UInt8] { [0x1B, 0x4A, n] }
    /// ESC d n: print and feed n lines.
    static func feed(lines n: UInt8) -> [UInt8] { [0x1B, 0x64, n] }
    /// ESC 3 n: line spacing of n motion units.
    static func lineSpacing(_ n: UInt8) -> [UInt8] { [0x1B, 0x33, n] }
    /// ESC p m t1 t2: drawer pulse.
    static func pulse(_ m: UInt8, _ t1: UInt8, _ t2: UInt8) -> [UInt8] { [0x1B, 0x70, m, t1, t2] }
    /// DLE EOT n: real-time status.
    static func status(_ n: UInt8) -> [UInt8] { [0x10, 0x04, n] }
    /// GS ( H pL pH fn m d1..d4 (fn 48): process-ID response after what came before.
    static func processID(_ id: String) -> [UInt8] { [0x1D, 0x28, 0x48, 0x06, 0x00, 0x30, 0x30] + Array(id.utf8) }
    /// The process-ID response: header 37h, identifier 22h, the ID, NUL.
    static func processIDResponse(_ id: String) -> [UInt8] { [0x37, 0x22] + Array(id.utf8) + [0x00] }
}

/// The 16x4 image the raster tests print, with its rows as the bytes carry them.
enum SampleImage {
    static let bytes: [UInt8] = [
        0xFF, 0x00,  // ########........
        0x81, 0x81,  // #......##......#
        0xAA, 0x55,  // #.#.#.#..#.#.#.#
        0x00, 0xFF,  // ........########
    ]
    static let rows = [
        "########........",
        "#......##......#",
        "#.#.#.#..#.#.#.#",
        "........########",
    ]
}
