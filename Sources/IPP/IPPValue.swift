public import Foundation
public import PrintModel

/// The syntax of an IPP attribute's values: the wire "value tag" of RFC 8010
/// §3.5.2 (`keyword`, `rangeOfInteger`, `collection`...).
///
/// A struct over the raw number rather than a closed enum, because printers
/// send vendor and future tags too and a reply must never fail to convert.
public struct IPPSyntax: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    // Out-of-band values: the attribute exists but carries no value.
    public static let unsupported = IPPSyntax(rawValue: 0x10)
    public static let unknown = IPPSyntax(rawValue: 0x12)
    public static let noValue = IPPSyntax(rawValue: 0x13)
    public static let notSettable = IPPSyntax(rawValue: 0x15)
    public static let deleteAttribute = IPPSyntax(rawValue: 0x16)
    public static let adminDefine = IPPSyntax(rawValue: 0x17)
    // Numbers.
    public static let integer = IPPSyntax(rawValue: 0x21)
    public static let boolean = IPPSyntax(rawValue: 0x22)
    public static let enumeration = IPPSyntax(rawValue: 0x23)
    // Structured values.
    public static let octetString = IPPSyntax(rawValue: 0x30)
    public static let dateTime = IPPSyntax(rawValue: 0x31)
    public static let resolution = IPPSyntax(rawValue: 0x32)
    public static let rangeOfInteger = IPPSyntax(rawValue: 0x33)
    public static let collection = IPPSyntax(rawValue: 0x34)
    public static let textWithLanguage = IPPSyntax(rawValue: 0x35)
    public static let nameWithLanguage = IPPSyntax(rawValue: 0x36)
    // Strings.
    public static let text = IPPSyntax(rawValue: 0x41)
    public static let name = IPPSyntax(rawValue: 0x42)
    public static let keyword = IPPSyntax(rawValue: 0x44)
    public static let uri = IPPSyntax(rawValue: 0x45)
    public static let uriScheme = IPPSyntax(rawValue: 0x46)
    public static let charset = IPPSyntax(rawValue: 0x47)
    public static let naturalLanguage = IPPSyntax(rawValue: 0x48)
    public static let mimeMediaType = IPPSyntax(rawValue: 0x49)
    public static let memberAttrName = IPPSyntax(rawValue: 0x4A)

    /// The name ipptool prints, e.g. `keyword`; `tag-0x7f` for one we do not know.
    public var description: String {
        Self.names[rawValue] ?? "tag-0x" + String(rawValue, radix: 16)
    }

    private static let names: [Int: String] = [
        0x10: "unsupported", 0x12: "unknown", 0x13: "no-value", 0x15: "not-settable",
        0x16: "delete-attribute", 0x17: "admin-define", 0x21: "integer", 0x22: "boolean",
        0x23: "enum", 0x30: "octetString", 0x31: "dateTime", 0x32: "resolution",
        0x33: "rangeOfInteger", 0x34: "collection", 0x35: "textWithLanguage",
        0x36: "nameWithLanguage", 0x41: "textWithoutLanguage", 0x42: "nameWithoutLanguage",
        0x44: "keyword", 0x45: "uri", 0x46: "uriScheme", 0x47: "charset",
        0x48: "naturalLanguage", 0x49: "mimeMediaType", 0x4A: "memberAttrName",
    ]
}

/// The group an attribute arrived in (RFC 8010 §3.5.1): operation, job,
/// printer... A Get-Jobs reply holds one job group per job, so later job
/// tracking needs to know where each group starts.
public struct IPPGroup: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    public static let operation = IPPGroup(rawValue: 0x01)
    public static let job = IPPGroup(rawValue: 0x02)
    public static let printer = IPPGroup(rawValue: 0x04)
    public static let unsupported = IPPGroup(rawValue: 0x05)
    public static let subscription = IPPGroup(rawValue: 0x06)
    public static let eventNotification = IPPGroup(rawValue: 0x07)
    public static let document = IPPGroup(rawValue: 0x09)
    /// Members of a collection carry no group of their own.
    public static let none = IPPGroup(rawValue: 0x00)

    public var description: String {
        switch rawValue {
        case 0x01: "operation-attributes-tag"
        case 0x02: "job-attributes-tag"
        case 0x04: "printer-attributes-tag"
        case 0x05: "unsupported-attributes-tag"
        case 0x06: "subscription-attributes-tag"
        case 0x07: "event-notification-attributes-tag"
        case 0x09: "document-attributes-tag"
        case 0x00: "no-group"
        default: "group-0x" + String(rawValue, radix: 16)
        }
    }
}

/// An IPP `resolution` value as sent: two numbers and their unit. Kept apart
/// from PrintModel's `Resolution` (always dpi) so that no precision is lost
/// converting a dots-per-centimetre value before someone asks for it.
public struct IPPResolution: Hashable, Sendable, CustomStringConvertible {
    public enum Unit: Sendable, Hashable { case dotsPerInch, dotsPerCentimetre }
    public var horizontal: Int
    public var vertical: Int
    public var unit: Unit

    public init(horizontal: Int, vertical: Int, unit: Unit = .dotsPerInch) {
        self.horizontal = horizontal; self.vertical = vertical; self.unit = unit
    }

    /// In dots per inch, rounded: 118 dpcm is 300 dpi.
    public var dpi: Resolution {
        switch unit {
        case .dotsPerInch: Resolution(horizontal, vertical)
        case .dotsPerCentimetre:
            Resolution(Int((Double(horizontal) * 2.54).rounded()), Int((Double(vertical) * 2.54).rounded()))
        }
    }

    public var description: String {
        let unitName = unit == .dotsPerInch ? "dpi" : "dpcm"
        return horizontal == vertical ? "\(horizontal)\(unitName)" : "\(horizontal)x\(vertical)\(unitName)"
    }
}

/// One value of an IPP attribute. Every string syntax (keyword, name, text,
/// uri, mimeMediaType, charset...) is a `string`: the attribute's `syntax`
/// says which it was, and callers almost always want the characters.
public indirect enum IPPValue: Sendable, Hashable, CustomStringConvertible {
    case integer(Int)
    case boolean(Bool)
    /// An `enum` value such as `printer-state` 3 or `finishings` 61.
    case enumValue(Int)
    case string(String)
    case range(ClosedRange<Int>)
    case resolution(IPPResolution)
    /// A collection's member attributes, in the order sent.
    case collection([IPPAttribute])
    case dateTime(Date)
    case octets([UInt8])
    /// No value (`no-value`, `unknown`, `unsupported`), or a value too broken
    /// to represent (a range whose lower bound exceeds its upper bound).
    case outOfBand(IPPSyntax)

    public var description: String {
        switch self {
        case .integer(let value), .enumValue(let value): "\(value)"
        case .boolean(let value): value ? "true" : "false"
        case .string(let value): value
        case .range(let range): "\(range.lowerBound)-\(range.upperBound)"
        case .resolution(let resolution): resolution.description
        case .collection(let members):
            "{" + members.map { "\($0.name)=\($0.values.map(\.description).joined(separator: ","))" }
                .joined(separator: " ") + "}"
        case .dateTime(let date): ISO8601DateFormatter().string(from: date)
        case .octets(let bytes): "<\(bytes.count) octets>"
        case .outOfBand(let syntax): syntax.description
        }
    }
}

/// One IPP attribute: a name, the syntax of its values, and one value or a
/// `1setOf` several. The module's general representation of a printer's
/// reply; no libcups pointer is kept.
public struct IPPAttribute: Sendable, Hashable, CustomStringConvertible {
    public var name: String
    public var syntax: IPPSyntax
    public var group: IPPGroup
    public var values: [IPPValue]

    public init(name: String, syntax: IPPSyntax, group: IPPGroup = .printer, values: [IPPValue]) {
        self.name = name; self.syntax = syntax; self.group = group; self.values = values
    }

    /// `name (syntax) = v1,v2`, the way ipptool prints it.
    public var description: String {
        "\(name) (\(values.count > 1 ? "1setOf " : "")\(syntax)) = \(values.map(\.description).joined(separator: ","))"
    }
}
