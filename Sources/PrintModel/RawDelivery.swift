/// How a role's documents reach a raw receipt printer (`[role.NAME] delivery`).
public enum RawDelivery: String, Sendable, Hashable, CaseIterable, Codable {
    /// Everything drawn and sent as raster: exactly the preview's look on
    /// any head, the most bytes (a 30-item receipt is 101 KB, 53 s at 19200 baud).
    case raster
    /// Text the printer's own font can show is sent as characters in its
    /// code pages, the rest (logos, barcodes, rules, other scripts) drawn:
    /// a tenth of the bytes (9.3 KB, 4.8 s at 19200 baud), in the printer's
    /// fixed-pitch font.
    case native
    /// `native` on a serial line at or under `autoNativeBaud`, where bytes
    /// cost seconds; `raster` on sockets and USB, where they do not.
    case auto

    /// The fastest serial line `auto` still sends text as text on.
    public static let autoNativeBaud = 115_200

    /// The role's default: `auto`.
    public static let defaultDelivery = RawDelivery.auto

    /// Whether text goes as text to a printer on a link of `baud` (nil: not a serial line).
    public func sendsText(serialBaud baud: Int?) -> Bool {
        switch self {
        case .raster: false
        case .native: true
        case .auto: baud.map { $0 <= Self.autoNativeBaud } ?? false
        }
    }
}
