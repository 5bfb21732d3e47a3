public import Foundation

/// A job's data, as JSON values: what a template's `{{name}}` tags and
/// `{{#name}}` sections are bound to.
///
/// Integers and other numbers stay apart so that `12` prints as "12" and
/// `2.5` as "2.5"; booleans print as "true" and "false". Object members are
/// unordered: two objects with the same members are equal.
///
/// ```swift
/// let data = try TemplateData(json: bytes, file: "receipt.json")
/// let bound = try DataBinder.bind(document, data: data)
/// ```
public enum TemplateData: Sendable, Equatable {
    case null
    case bool(Bool)
    case integer(Int)
    case number(Double)
    case string(String)
    case array([TemplateData])
    case object([String: TemplateData])

    /// Reads a JSON document whose top level is an object.
    ///
    /// - Parameter file: the name errors give for the data, such as `receipt.json`.
    /// - Throws: one diagnostic at the line and column where the JSON goes
    ///   wrong, or where a top level that is not an object starts.
    /// - Parameter maximumBytes: more is refused unread; a job's data may be
    ///   `TemplateLimits.maximumDataBytes`, a job file wrapping other bytes more.
    /// - Parameter maximumNesting: deeper objects and lists are refused; one
    ///   more than a job's data for a job file, whose `"data"` is one level down.
    public init(json: Data, file: String, maximumBytes: Int = TemplateLimits.maximumDataBytes,
                maximumNesting: Int = TemplateLimits.maximumDataNesting) throws(TemplateErrors) {
        var reader = JSONReader(bytes: Array(json), file: file, maximumBytes: maximumBytes, maximumDepth: maximumNesting)
        let value = try reader.readDocument()
        guard case .object = value else {
            let start = reader.location(ofByte: reader.firstValueOffset)
            throw TemplateErrors([TemplateDiagnostic(
                "the data must be a JSON object { ... }, not \(value.kindDescription). "
                    + "Put the values under names, for example { \"items\": [ ... ] }.", at: start)])
        }
        self = value
    }

    /// The value as it prints in text: strings as they are, integers without
    /// a decimal point, other numbers in Swift's shortest form, `null` as nothing.
    /// Nil for arrays and objects, which have no single printed form.
    public var printed: String? {
        switch self {
        case .null: ""
        case .bool(let value): value ? "true" : "false"
        case .integer(let value): String(value)
        case .number(let value): value.description
        case .string(let value): value
        case .array, .object: nil
        }
    }

    /// Whether a `{{#section}}` on this value shows its content: false, null,
    /// an empty list, an empty string and zero do not.
    public var isTruthy: Bool {
        switch self {
        case .null: false
        case .bool(let value): value
        case .integer(let value): value != 0
        case .number(let value): value != 0
        case .string(let value): !value.isEmpty
        case .array(let items): !items.isEmpty
        case .object: true
        }
    }

    /// The member `name` of an object; nil for anything else.
    public subscript(name: String) -> TemplateData? {
        if case .object(let members) = self { members[name] } else { nil }
    }

    /// How an error message names the value's kind.
    var kindDescription: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .integer, .number: "a number"
        case .string: "a string"
        case .array: "a list [ ... ]"
        case .object: "an object { ... }"
        }
    }
}

// Literals, so that built-in values and tests read like the JSON they stand for.
extension TemplateData: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral {
    public init(nilLiteral: ()) { self = .null }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int) { self = .integer(value) }
    public init(floatLiteral value: Double) { self = .number(value) }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(arrayLiteral elements: TemplateData...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, TemplateData)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}
