/// Star's automatic status (ASB): what a Star printer sends when asked with
/// `ESC ACK SOH`, or unasked when ASB is on. "STAR Line Mode Command
/// Specifications", appendix 5.2.3. Header 1 gives the length in its bits
/// 1-3 and 5 and is the only byte with bit 0 set (`0**0***1`); the status
/// bytes follow header 2.
public struct StarAutomaticStatus: Hashable, Sendable {
    /// The whole answer, headers included.
    public let bytes: [UInt8]

    /// True when `byte` can be header 1.
    public static func isHeader(_ byte: UInt8) -> Bool { byte & 0x91 == 0x01 }

    /// The answer's length that header 1 gives: 7 to 15 bytes.
    public static func length(header: UInt8) -> Int { Int((header >> 1) & 0x07) | Int((header >> 2) & 0x08) }

    /// The first whole answer in `received`, and how many bytes it ends at; nil while more are needed.
    public static func first(in received: [UInt8]) -> (status: StarAutomaticStatus, end: Int)? {
        guard let start = received.firstIndex(where: isHeader) else { return nil }
        let length = length(header: received[start])
        guard length >= 7, received.count - start >= length else { return nil }
        return (StarAutomaticStatus(bytes: Array(received[start ..< start + length])), start + length)
    }

    /// The answer in `bytes`, taken as it is; `first(in:)` finds one in a stream.
    public init(bytes: [UInt8]) { self.bytes = bytes }

    private func bit(_ index: Int, _ mask: UInt8) -> Bool { index < bytes.count && bytes[index] & mask != 0 }

    // Byte 3, printer status.
    public var coverOpen: Bool { bit(2, 0x20) }
    public var offline: Bool { bit(2, 0x08) }
    /// The drawer's compulsion switch is closed (which level means open depends on the drawer).
    public var compulsionSwitchClosed: Bool { bit(2, 0x04) }
    // Byte 4, errors.
    public var stoppedByHeadTemperature: Bool { bit(3, 0x40) }
    public var unrecoverableError: Bool { bit(3, 0x20) }
    public var cutterError: Bool { bit(3, 0x08) }
    public var mechanicalError: Bool { bit(3, 0x04) }
    // Byte 8, the ETB counter: five bits, in bits 1-3 and 5-6.
    /// How many `ETB`s the printer has reached (0 to 31, then 0 again) since it started or `ESC RS E` cleared it.
    public var etbCounter: Int {
        guard bytes.count > 7 else { return 0 }
        return Int((bytes[7] >> 1) & 0x07) | Int((bytes[7] >> 2) & 0x18)
    }
    // Byte 6, paper sensor.
    public var paperEnd: Bool { bit(5, 0x08) }
    public var paperNearEnd: Bool { bit(5, 0x04) }

    /// In KioskPrint's terms. The drawer reads as open when its compulsion
    /// switch is closed: Star's default, as ESC/POS's "pin 3 high" is Epson's;
    /// a drawer wired the other way reads the other way round on both.
    public var status: RawPrinterStatus {
        RawPrinterStatus(offline: offline, coverOpen: coverOpen, paperEnd: paperEnd, paperNearEnd: paperNearEnd,
                         cutterError: cutterError, unrecoverableError: unrecoverableError || mechanicalError,
                         autoRecoverableError: stoppedByHeadTemperature, drawerOpen: compulsionSwitchClosed)
    }
}
