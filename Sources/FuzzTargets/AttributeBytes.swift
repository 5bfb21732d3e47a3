import IPP

/// Turns fuzzer bytes into printer attributes, so the mapping from a
/// printer's answer to capabilities is explored with the names and syntaxes
/// that matter (resolutions, media collections, ranges), not with random
/// IPP framing, which is libcups' own and fuzzed where libcups is.
///
/// Each attribute is: a name byte (an index into `names`), a syntax byte, a
/// count byte, then its values; a collection nests up to `depth` levels.
enum AttributeBytes {
    static let names = [
        "printer-name", "printer-kind", "printer-state", "printer-state-reasons", "document-format-supported",
        "pwg-raster-document-resolution-supported", "printer-resolution-supported", "printer-resolution-default",
        "urf-supported", "media-supported", "media-ready", "media-size-supported", "media-col-database", "media-col-ready",
        "media-source-supported", "media-top-margin-supported", "media-bottom-margin-supported",
        "media-left-margin-supported", "media-right-margin-supported", "finishings-supported", "copies-supported",
        "media-size", "x-dimension", "y-dimension", "media-top-margin", "media-bottom-margin", "media-left-margin",
        "media-right-margin", "media-source", "media-type", "media-size-name", "color-supported", "sides-supported",
    ]
    static let depth = 3

    static func attributes(from bytes: [UInt8]) -> [IPPAttribute] {
        var reader = Reader(bytes: bytes)
        return reader.attributes(level: 0)
    }

    private struct Reader {
        let bytes: [UInt8]
        var at = 0

        mutating func byte() -> UInt8? {
            guard at < bytes.count else { return nil }
            defer { at += 1 }
            return bytes[at]
        }

        mutating func int() -> Int? {
            guard let a = byte(), let b = byte(), let c = byte(), let d = byte() else { return nil }
            return Int(Int32(bitPattern: UInt32(a) << 24 | UInt32(b) << 16 | UInt32(c) << 8 | UInt32(d)))
        }

        mutating func string() -> String? {
            guard let length = byte() else { return nil }
            let end = min(bytes.count, at + Int(length))
            defer { at = end }
            return String(decoding: bytes[at..<end], as: UTF8.self)
        }

        mutating func attributes(level: Int) -> [IPPAttribute] {
            var attributes: [IPPAttribute] = []
            while attributes.count < 64, let name = byte(), let kind = byte(), let count = byte() {
                if name == 0xFF { break }  // ends a collection
                let values = (0..<Int(count % 8)).compactMap { _ in value(kind, level: level) }
                let syntax = Self.syntax(kind)
                attributes.append(IPPAttribute(name: AttributeBytes.names[Int(name) % AttributeBytes.names.count],
                                               syntax: syntax, values: values))
            }
            return attributes
        }

        mutating func value(_ kind: UInt8, level: Int) -> IPPValue? {
            switch kind % 6 {
            case 0: return int().map(IPPValue.integer)
            case 1: return int().map(IPPValue.enumValue)
            case 2: return string().map(IPPValue.string)
            case 3:
                guard let low = int(), let high = int() else { return nil }
                return .range(min(low, high)...max(low, high))
            case 4:
                guard let horizontal = int(), let vertical = int(), let unit = byte() else { return nil }
                return .resolution(IPPResolution(horizontal: horizontal, vertical: vertical,
                                                 unit: unit % 2 == 0 ? .dotsPerInch : .dotsPerCentimetre))
            default:
                guard level < AttributeBytes.depth else { return nil }
                return .collection(attributes(level: level + 1))
            }
        }

        static func syntax(_ kind: UInt8) -> IPPSyntax {
            switch kind % 6 {
            case 0: IPPSyntax(rawValue: 0x21)      // integer
            case 1: IPPSyntax(rawValue: 0x23)      // enum
            case 2: IPPSyntax(rawValue: 0x44)      // keyword
            case 3: IPPSyntax(rawValue: 0x33)      // rangeOfInteger
            case 4: IPPSyntax(rawValue: 0x32)      // resolution
            default: IPPSyntax(rawValue: 0x34)     // collection
            }
        }
    }
}
