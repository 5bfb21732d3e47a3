/// Why a length or resolution typed on the command line (`--width 80mm`,
/// `--dpi 203`) was refused, with the forms that are accepted.
public enum MeasureParseError: Error, Hashable, Sendable, CustomStringConvertible {
    case length(String)
    case resolution(String)
    case pageSize(String)

    public var description: String {
        switch self {
        case .length(let text):
            "\"\(text)\" is not a length. Write a number and a unit: 80mm, 58 mm, 7.5cm, 3.25in, 3.25\" or 1pt."
        case .pageSize(let text):
            "\"\(text)\" is not a page size. Write width x length with a unit: 4x6in, 80x120mm or 8x3.25in."
        case .resolution(let text):
            "\"\(text)\" is not a resolution. Write dots per inch: 203, 203dpi, 300 dpi or 300x600dpi."
        }
    }
}

extension Length {
    /// A length as a person types it: `80mm`, `58 mm`, `7.5cm`, `3.25in`,
    /// `3.25 inches`, `3.25"`, `1pt`. A unit is required: a bare `80` could be
    /// millimetres or dots, and guessing wrong prints at the wrong size.
    public init(parsing text: String) throws(MeasureParseError) {
        let trimmed = text.trimmingWhitespace().lowercased()
        let number = String(trimmed.prefix { $0.isASCII && ($0.isNumber || $0 == ".") })
        let unit = String(trimmed.dropFirst(number.count)).trimmingWhitespace()
        guard let value = Self.decimal(number) else { throw .length(text) }
        // Hundredths of a millimetre per unit.
        let scale: Double
        switch unit {
        case "mm", "millimetre", "millimetres", "millimeter", "millimeters": scale = 100
        case "cm", "centimetre", "centimetres", "centimeter", "centimeters": scale = 1000
        case "in", "inch", "inches", "\"": scale = 2540
        // Points, as type and rules are measured in templates: 1/72 in.
        case "pt", "point", "points": scale = 2540.0 / 72
        default: throw .length(text)
        }
        let hundredths = (value * scale).rounded()
        // Ten metres is far past any cut length; larger is a typing mistake.
        guard hundredths <= 1_000_000 else { throw .length(text) }
        self.init(hundredthsOfMillimetre: Int(hundredths))
    }

    /// Digits with at most one decimal point, nothing else: `Double("1e3")`
    /// or `Double("nan")` would accept forms nobody means as a length.
    static func decimal(_ text: String) -> Double? {
        guard !text.isEmpty, text != ".", text.filter({ $0 == "." }).count <= 1,
              text.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }) else { return nil }
        return Double(text)
    }
}

extension Resolution {
    /// A resolution as a person types it: `203`, `203dpi`, `300 dpi`,
    /// `300x600dpi` (across x along the paper).
    public init(parsing text: String) throws(MeasureParseError) {
        var trimmed = text.trimmingWhitespace().lowercased()
        if trimmed.hasSuffix("dpi") { trimmed = String(trimmed.dropLast(3)).trimmingWhitespace() }
        let parts = trimmed.split(separator: "x", omittingEmptySubsequences: false)
        let values = parts.map { Int($0.trimmingWhitespace()) }
        // 1...9600 dpi: anything beyond is not a printer.
        guard (1...2).contains(values.count),
              values.allSatisfy({ $0.map { (1...9600).contains($0) } ?? false }) else { throw .resolution(text) }
        self.init(values[0]!, values.count == 2 ? values[1]! : nil)
    }
}

extension StringProtocol {
    func trimmingWhitespace() -> String {
        String(drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
    }
}

extension PageSize {
    /// A page size as a person types it: `4x6in`, `80x120mm`, `8 x 3.25 in`,
    /// `80mm x 120mm`. One unit at the end applies to both numbers.
    public init(parsing text: String) throws(MeasureParseError) {
        let parts = text.lowercased().split(separator: "x", maxSplits: 1).map { $0.trimmingWhitespace() }
        guard parts.count == 2 else { throw .pageSize(text) }
        let unit = String(parts[1].reversed().prefix { !($0.isNumber || $0 == "." || $0 == " ") }.reversed())
        let first = parts[0].last.map { $0.isNumber || $0 == "." } == true ? parts[0] + unit : parts[0]
        do {
            self.init(width: try Length(parsing: first), length: try Length(parsing: parts[1]))
        } catch {
            throw .pageSize(text)
        }
    }
}
