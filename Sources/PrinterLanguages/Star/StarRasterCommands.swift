public import PrintModel

/// Star's raster commands (`ESC * r`), the whole of Star Graphic mode (the
/// TSP100 family) and the raster extension of Star Line mode ("STAR Line
/// Mode Command Specifications" Rev 1.12 §3.4, pp. 3-68 to 3-79, and Star's
/// CUPS filter `rastertostar`). A number in a command is ASCII decimal ended
/// by NUL (`ESC * r Y 24 NUL` is `1B 2A 72 59 32 34 00`); a raster row's
/// length is binary, low byte first. In a row, the most significant bit is
/// the leftmost dot, 1 = ink.
public enum StarRasterCommand {
    /// `ESC * r R`: raster mode's settings back to their start.
    public static let initializeRaster: [UInt8] = [0x1B, 0x2A, 0x72, 0x52]
    /// `ESC * r A`: enter raster mode.
    public static let enterRaster: [UInt8] = [0x1B, 0x2A, 0x72, 0x41]
    /// `ESC * r B`: quit raster mode, printing what is left in the image buffer.
    public static let quitRaster: [UInt8] = [0x1B, 0x2A, 0x72, 0x42]
    /// `ESC FF NUL`: print the image buffer and do what the FF mode says (cut).
    public static let formFeed: [UInt8] = [0x1B, 0x0C, 0x00]

    /// A raster command with a number: `ESC * r <letter> n NUL`.
    static func setting(_ letter: UInt8, _ value: Int) -> [UInt8] {
        [0x1B, 0x2A, 0x72, letter] + Array(String(value).utf8) + [0x00]
    }

    /// `ESC * r Q n NUL`: print quality, 0 the fastest (the start value).
    public static func quality(_ value: Int) -> [UInt8] { setting(UInt8(ascii: "Q"), value) }
    /// `ESC * r P n NUL`: the page length in dots; 0 prints continuously, as a roll wants.
    public static func pageLength(_ dots: Int) -> [UInt8] { setting(UInt8(ascii: "P"), dots) }
    /// `ESC * r E n NUL`: what the end of the document does (`EndMode`).
    public static func endOfDocument(_ mode: EndMode) -> [UInt8] { setting(UInt8(ascii: "E"), mode.rawValue) }
    /// `ESC * r F n NUL`: what `ESC FF NUL` does (`EndMode`).
    public static func formFeedMode(_ mode: EndMode) -> [UInt8] { setting(UInt8(ascii: "F"), mode.rawValue) }
    /// `ESC * r D n NUL`: drive the drawer outputs (1, 2, or 3 for both) with the pulse `ESC BEL` set.
    public static func drawer(_ outputs: Int) -> [UInt8] { setting(UInt8(ascii: "D"), outputs) }
    /// `ESC * r Y n NUL`: move the paper `dots` dot rows with nothing printed.
    public static func feed(dots: Int) -> [UInt8] { setting(UInt8(ascii: "Y"), dots) }
    /// `b n1 n2 d1...dk`: one dot row of `data`, then the next row.
    public static func row(_ data: ArraySlice<UInt8>) -> [UInt8] {
        [0x62, UInt8(data.count & 0xFF), UInt8(data.count >> 8)] + data
    }

    /// What a page's end does: the values of `ESC * r E` and `ESC * r F`.
    public enum EndMode: Int, Sendable {
        /// Print only; the paper stays under the head.
        case printOnly = 1
        /// Print and feed to the tear bar.
        case tearBar = 3
        /// Print, feed to the cutter, cut through.
        case fullCut = 9
        /// Print, feed to the cutter, cut leaving a tab.
        case partialCut = 13

        /// The mode for a job's cut.
        public init(_ cut: RawProfile.CutKind) {
            switch cut {
            case .none: self = .tearBar
            case .partial: self = .partialCut
            case .full: self = .fullCut
            }
        }
    }
}
