public import PrintModel

/// A PWG 5101.1 self-describing media name, such as `iso_a4_210x297mm`,
/// `na_index-4x6_4x6in` or `custom_min_80x25mm`, read for its dimensions.
///
/// Pure Swift rather than libcups' pwgMediaForPWG so that capability
/// mapping stays free of C and testable on synthetic attributes.
public struct PWGMediaSize: Hashable, Sendable {
    public var name: String
    public var width: Length
    public var length: Length

    /// Parses the last `_`-separated part, `WxHmm` or `WxHin`; nil for a name
    /// that does not describe its size (`na_letter`, `roll_max`...).
    public init?(_ name: String) {
        guard let last = name.split(separator: "_").last, last.count > 4 else { return nil }
        let unit = last.suffix(2)
        let scale: Double
        switch unit {
        case "mm": scale = 100
        case "in": scale = 2540
        default: return nil
        }
        let figures = last.dropLast(2).split(separator: "x", omittingEmptySubsequences: false)
        guard figures.count == 2, let width = Double(figures[0]), let length = Double(figures[1]),
              width.isFinite, length.isFinite, width > 0, length > 0, width < 100_000, length < 100_000
        else { return nil }
        self.name = name
        self.width = Length(hundredthsOfMillimetre: Int((width * scale).rounded()))
        self.length = Length(hundredthsOfMillimetre: Int((length * scale).rounded()))
    }

    /// `custom_min_...` or `roll_min_...`: the smallest size of a range.
    public var isRangeMinimum: Bool { name.hasPrefix("custom_min_") || name.hasPrefix("roll_min_") }
    /// `custom_max_...` or `roll_max_...`: the largest size of a range.
    public var isRangeMaximum: Bool { name.hasPrefix("custom_max_") || name.hasPrefix("roll_max_") }
    /// `roll_min_`/`roll_max_`: PWG's names for the range of a roll.
    public var isRoll: Bool { name.hasPrefix("roll_") }
    /// A bound of a custom or roll range rather than one fixed size.
    public var isRangeBound: Bool { isRangeMinimum || isRangeMaximum }

    /// True when the name describes `width` x `length` to within `tolerance`
    /// hundredths of a millimetre (names round: 8.5 in is exact, 3.25 in is not).
    public func matches(width: Length, length: Length, tolerance: Int = 2) -> Bool {
        abs(self.width.hundredthsOfMillimetre - width.hundredthsOfMillimetre) <= tolerance
            && abs(self.length.hundredthsOfMillimetre - length.hundredthsOfMillimetre) <= tolerance
    }
}
