/// Typed reads of IPP values that tolerate what printers really send: an
/// accessor returns nil (or an empty list) for a value of another syntax
/// instead of trapping, so a sloppy printer costs a missing field, never a crash.
extension IPPValue {
    /// An `integer` or an `enum` (printers mix them up, e.g. `printer-state`).
    public var int: Int? {
        switch self {
        case .integer(let value), .enumValue(let value): value
        default: nil
        }
    }

    public var bool: Bool? {
        if case .boolean(let value) = self { return value }
        return nil
    }

    public var string: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    public var range: ClosedRange<Int>? {
        if case .range(let value) = self { return value }
        return nil
    }

    public var resolution: IPPResolution? {
        if case .resolution(let value) = self { return value }
        return nil
    }

    public var collection: [IPPAttribute]? {
        if case .collection(let members) = self { return members }
        return nil
    }
}

extension IPPAttribute {
    /// The first value, when there is one.
    public var value: IPPValue? { values.first }

    /// Every string value; values of other syntaxes are skipped.
    public var strings: [String] { values.compactMap(\.string) }
    /// Every integer or enum value.
    public var ints: [Int] { values.compactMap(\.int) }
    /// Every collection value.
    public var collections: [[IPPAttribute]] { values.compactMap(\.collection) }
}

extension Array where Element == IPPAttribute {
    /// The first attribute of that name. A printer may repeat an attribute
    /// (ippeveprinter sends `printer-location` twice when an attribute file
    /// sets it); the first wins, as with libcups' `ippFindAttribute`.
    public subscript(named name: String) -> IPPAttribute? {
        first { $0.name == name }
    }

    /// The first value of `name` as a string, nil when absent, empty or of another syntax.
    public func string(_ name: String) -> String? {
        guard let value = self[named: name]?.value?.string, !value.isEmpty else { return nil }
        return value
    }

    /// Every string value of `name`.
    public func strings(_ name: String) -> [String] { self[named: name]?.strings ?? [] }

    /// The first value of `name` as an integer or enum.
    public func int(_ name: String) -> Int? { self[named: name]?.value?.int }

    /// Every integer or enum value of `name`.
    public func ints(_ name: String) -> [Int] { self[named: name]?.ints ?? [] }

    /// The first value of `name` as a boolean.
    public func bool(_ name: String) -> Bool? { self[named: name]?.value?.bool }

    /// Every collection value of `name`.
    public func collections(_ name: String) -> [[IPPAttribute]] { self[named: name]?.collections ?? [] }
}

// Builders, mainly for tests and for describing requests in Swift.
extension IPPAttribute {
    public static func keyword(_ name: String, _ values: String...) -> IPPAttribute {
        IPPAttribute(name: name, syntax: .keyword, values: values.map(IPPValue.string))
    }
    public static func text(_ name: String, _ value: String) -> IPPAttribute {
        IPPAttribute(name: name, syntax: .text, values: [.string(value)])
    }
    public static func integer(_ name: String, _ values: Int...) -> IPPAttribute {
        IPPAttribute(name: name, syntax: .integer, values: values.map(IPPValue.integer))
    }
    public static func enumeration(_ name: String, _ values: Int...) -> IPPAttribute {
        IPPAttribute(name: name, syntax: .enumeration, values: values.map(IPPValue.enumValue))
    }
    public static func boolean(_ name: String, _ value: Bool) -> IPPAttribute {
        IPPAttribute(name: name, syntax: .boolean, values: [.boolean(value)])
    }
    public static func range(_ name: String, _ value: ClosedRange<Int>) -> IPPAttribute {
        IPPAttribute(name: name, syntax: .rangeOfInteger, values: [.range(value)])
    }
    public static func resolution(_ name: String, _ values: IPPResolution...) -> IPPAttribute {
        IPPAttribute(name: name, syntax: .resolution, values: values.map(IPPValue.resolution))
    }
    public static func collection(_ name: String, _ values: [IPPAttribute]...) -> IPPAttribute {
        IPPAttribute(name: name, syntax: .collection, values: values.map(IPPValue.collection))
    }
}
