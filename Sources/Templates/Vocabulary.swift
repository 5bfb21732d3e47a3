import Foundation
import PrintModel

/// The elements and attributes of the template markup, and how attribute
/// values are read. One table, so `templates check` and the parser agree and
/// an unknown name can be answered with the names that exist.
enum Vocabulary {
    static let styleAttributes: Set<String> = ["font", "size", "bold", "italic", "underline", "inverse", "align",
                                               "wrap", "line-spacing"]

    /// Each element and the attributes it takes.
    static let attributes: [String: Set<String>] = [
        "template": ["name", "page", "orientation", "cut", "min-length", "margin", "cut-style", "drawer"],
        "header": [], "footer": [],
        "text": styleAttributes,
        "row": styleAttributes,
        "col": styleAttributes.union(["width"]),
        "br": [],
        "rule": ["style", "thickness"],
        "space": ["height"],
        "image": ["src", "width", "align", "dither"],
        "barcode": ["type", "module", "height", "hri", "align", "check"],
        "box": ["border", "padding"],
        "cut": [],
    ]

    /// Blocks that may stand in the body, a header, a footer or a box.
    static let blocks: Set<String> = ["text", "row", "rule", "space", "image", "barcode", "box", "cut"]

    /// The known name closest to `name`, for "did you mean" (edit distance up to 2).
    static func suggestion(for name: String, among names: some Collection<String>) -> String? {
        Spelling.nearest(to: name, among: names)
    }
}

/// Reads one attribute's value, or says what was expected.
struct AttributeReader {
    let element: String
    let values: [String: String]
    let location: SourceLocation
    var problems: [TemplateDiagnostic] = []

    mutating func string(_ name: String) -> String? { values[name] }

    mutating func required(_ name: String) -> String? {
        guard let value = values[name], !value.isEmpty else {
            problems.append(TemplateDiagnostic("<\(element)> needs a \(name)=\"...\" attribute.", at: location))
            return nil
        }
        return value
    }

    mutating func bool(_ name: String) -> Bool? {
        guard let raw = values[name] else { return nil }
        switch raw.lowercased() {
        case "true", "yes", "1", "": return true
        case "false", "no", "0": return false
        default:
            problems.append(TemplateDiagnostic("\(name)=\"\(raw)\" on <\(element)> should be true or false.", at: location))
            return nil
        }
    }

    mutating func choice<T: RawRepresentable & CaseIterable>(_ name: String, as _: T.Type) -> T? where T.RawValue == String {
        guard let raw = values[name] else { return nil }
        if let value = T(rawValue: raw.lowercased()) { return value }
        let allowed = T.allCases.map(\.rawValue).joined(separator: ", ")
        problems.append(TemplateDiagnostic("\(name)=\"\(raw)\" on <\(element)> is not one of: \(allowed).", at: location))
        return nil
    }

    mutating func number(_ name: String, in range: ClosedRange<Double>) -> Double? {
        guard let raw = values[name] else { return nil }
        let trimmed = raw.hasSuffix("pt") ? String(raw.dropLast(2)) : raw
        guard let value = Double(trimmed.trimmingCharacters(in: .whitespaces)), range.contains(value) else {
            problems.append(TemplateDiagnostic(
                "\(name)=\"\(raw)\" on <\(element)> should be a number from \(range.lowerBound) to \(range.upperBound).",
                at: location))
            return nil
        }
        return value
    }

    mutating func length(_ name: String) -> Length? {
        guard let raw = values[name] else { return nil }
        do {
            return try Length(parsing: raw)
        } catch {
            problems.append(TemplateDiagnostic("\(name)=\"\(raw)\" on <\(element)>: \(error)", at: location))
            return nil
        }
    }

    mutating func style() -> TextStyle {
        var style = TextStyle()
        style.font = string("font")
        style.size = number("size", in: 4...144)
        style.bold = bool("bold")
        style.italic = bool("italic")
        style.underline = bool("underline")
        style.inverse = bool("inverse")
        style.align = choice("align", as: TextStyle.Alignment.self)
        style.wrap = choice("wrap", as: TextStyle.Wrap.self)
        style.lineSpacing = number("line-spacing", in: 0.5...4)
        return style
    }
}
