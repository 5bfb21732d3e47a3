/// A printer command language that a raw printer is driven with.
public enum CommandLanguage: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Epson's ESC/POS, also spoken by most other receipt printers.
    case escPOS = "escpos"
    /// Zebra's ZPL II.
    case zpl

    /// Reads one entry of a 1284 `CMD` list: `ESCPOS`, `ESC/POS` and `EPSON`
    /// (Epson's receipt printers), `ZPL`, `ZPL2` and `ZPL II` (Zebra). Nil
    /// for anything else, notably Epson's `ESC/P`, `ESCP2` and `ESCPR`, which
    /// are inkjet languages, not ESC/POS.
    public init?(commandSetEntry entry: some StringProtocol) {
        let letters = entry.uppercased().filter { $0.isLetter || $0.isNumber }
        if letters.hasPrefix("ESCPOS") || letters == "EPSON" {
            self = .escPOS
        } else if letters.hasPrefix("ZPL") {
            self = .zpl
        } else {
            return nil
        }
    }

    /// `ESC/POS` or `ZPL II`, as messages name it.
    public var description: String {
        switch self {
        case .escPOS: "ESC/POS"
        case .zpl: "ZPL II"
        }
    }
}
