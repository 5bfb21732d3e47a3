public import PrintModel

/// One job for a raw printer, in terms every command language can express:
/// the pieces of paper (each a bitmap, each followed by a cut), how to cut,
/// a drawer kick after the last cut, copies, and an optional process ID
/// through which an Epson printer confirms the print finished.
public struct RawJob: Hashable, Sendable {
    /// The pieces in order; each is cut (or torn) after it. On a label printer, one label each.
    public var pieces: [MonoBitmap]
    /// The cut after every piece.
    public var cut: RawProfile.CutKind
    /// Opens the cash drawer after the last cut, when set.
    public var drawerKick: DrawerKick?
    /// How many times the whole run of pieces is printed.
    public var copies: Int
    /// ESC/POS only: the ID the printer sends back (`GS ( H` fn 48) once
    /// everything before it has been processed, the last cut included.
    public var processID: ProcessID?
    /// Per piece, the lines the printer prints in its own font (`delivery =
    /// "native"`), in the piece's rows and columns; their rows are blank in
    /// the bitmap. Empty (or shorter than `pieces`): all raster. Only a
    /// language whose `printsDeviceText` is true takes any.
    public var deviceText: [[DeviceTextLine]]

    /// A job of `pieces`, each followed by `cut`.
    public init(pieces: [MonoBitmap], cut: RawProfile.CutKind, drawerKick: DrawerKick? = nil,
                copies: Int = 1, processID: ProcessID? = nil, deviceText: [[DeviceTextLine]] = []) {
        self.pieces = pieces; self.cut = cut; self.drawerKick = drawerKick
        self.copies = copies; self.processID = processID; self.deviceText = deviceText
    }

    /// The printer-font lines of piece `index`.
    public func deviceText(ofPiece index: Int) -> [DeviceTextLine] {
        index < deviceText.count ? deviceText[index] : []
    }

    /// True when some piece has printer-font lines.
    public var hasDeviceText: Bool { deviceText.contains { !$0.isEmpty } }
}

/// A pulse on a drawer-kick output (ESC/POS `ESC p m t1 t2`).
public struct DrawerKick: Hashable, Codable, Sendable {
    /// The output pulsed.
    public var pin: RawProfile.DrawerPin
    /// How long the solenoid is driven. `ESC p` counts in 2 ms units up to 255, so 2...510 ms.
    public var onMilliseconds: Int
    /// The rest after the pulse, 2...510 ms.
    public var offMilliseconds: Int

    /// A 50 ms pulse and a 500 ms rest on `pin`: inside `ESC p`'s range and
    /// long enough for common solenoids; a drawer that needs more gets its own values.
    public init(pin: RawProfile.DrawerPin = .pin2, onMilliseconds: Int = 50, offMilliseconds: Int = 500) {
        self.pin = pin; self.onMilliseconds = onMilliseconds; self.offMilliseconds = offMilliseconds
    }
}

/// The four characters of an Epson process ID (`GS ( H` fn 48, d1...d4).
/// Epson allows any printable ASCII (32...126); KioskPrint uses digits, which
/// cannot be mistaken for a status byte's framing.
public struct ProcessID: Hashable, Codable, Sendable, CustomStringConvertible {
    /// The four ASCII digits.
    public let bytes: [UInt8]

    /// Exactly four ASCII digits, `0042`; nil for anything else.
    public init?(_ text: String) {
        let bytes = Array(text.utf8)
        guard bytes.count == 4, bytes.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        self.bytes = bytes
    }

    /// The ID for a counter, as four digits (`7` -> `0007`); counters past 9999 wrap.
    public init(counter: Int) {
        let value = ((counter % 10_000) + 10_000) % 10_000
        bytes = [1000, 100, 10, 1].map { UInt8(0x30 + (value / $0) % 10) }
    }

    public var description: String { String(decoding: bytes, as: UTF8.self) }
}
