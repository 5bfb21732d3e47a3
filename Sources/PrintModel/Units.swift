/// Lengths on paper, in hundredths of a millimetre: the unit IPP uses for
/// `media-size`, margins and the cut length, so no value is ever rounded on
/// its way to the printer.
public struct Length: Hashable, Comparable, Codable, Sendable, CustomStringConvertible {
    public var hundredthsOfMillimetre: Int

    public init(hundredthsOfMillimetre: Int) { self.hundredthsOfMillimetre = hundredthsOfMillimetre }
    public static func millimetres(_ mm: Double) -> Length { Length(hundredthsOfMillimetre: Int((mm * 100).rounded())) }
    public static func inches(_ inches: Double) -> Length { Length(hundredthsOfMillimetre: Int((inches * 2540).rounded())) }
    public static let zero = Length(hundredthsOfMillimetre: 0)

    public var millimetres: Double { Double(hundredthsOfMillimetre) / 100 }

    /// The number of whole dots this length covers at `dpi` (rounded down:
    /// a printer cannot print part of a dot).
    public func dots(at dpi: Int) -> Int { hundredthsOfMillimetre * dpi / 2540 }

    public static func < (a: Length, b: Length) -> Bool { a.hundredthsOfMillimetre < b.hundredthsOfMillimetre }
    public static func + (a: Length, b: Length) -> Length { Length(hundredthsOfMillimetre: a.hundredthsOfMillimetre + b.hundredthsOfMillimetre) }
    public static func - (a: Length, b: Length) -> Length { Length(hundredthsOfMillimetre: a.hundredthsOfMillimetre - b.hundredthsOfMillimetre) }

    /// `80 mm`, `72.1 mm`: what a person reads in a table.
    public var description: String { "\(millimetreFigure) mm" }

    /// `80`, `72.1`: the number of millimetres to one decimal, without the unit.
    public var millimetreFigure: String {
        let tenths = (Double(hundredthsOfMillimetre) / 10).rounded()
        return tenths.truncatingRemainder(dividingBy: 10) == 0
            ? "\(Int(tenths / 10))" : "\(tenths / 10)"
    }

    // Encoded as a bare number of hundredths of a millimetre, as in IPP.
    public init(from decoder: any Decoder) throws {
        hundredthsOfMillimetre = try decoder.singleValueContainer().decode(Int.self)
    }
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(hundredthsOfMillimetre)
    }
}

/// A printing resolution in dots per inch, across and along the paper.
public struct Resolution: Hashable, Codable, Sendable, Comparable, CustomStringConvertible {
    public var horizontal: Int
    public var vertical: Int

    public init(_ horizontal: Int, _ vertical: Int? = nil) {
        self.horizontal = horizontal
        self.vertical = vertical ?? horizontal
    }

    public var description: String {
        horizontal == vertical ? "\(horizontal) dpi" : "\(horizontal)x\(vertical) dpi"
    }

    public static func < (a: Resolution, b: Resolution) -> Bool {
        (a.horizontal, a.vertical) < (b.horizontal, b.vertical)
    }
}

/// The unprintable edges of a sheet or roll, as the printer reports them.
public struct Margins: Hashable, Codable, Sendable {
    public var top: Length
    public var bottom: Length
    public var left: Length
    public var right: Length

    public init(top: Length = .zero, bottom: Length = .zero, left: Length = .zero, right: Length = .zero) {
        self.top = top; self.bottom = bottom; self.left = left; self.right = right
    }
    public static let none = Margins()
}
