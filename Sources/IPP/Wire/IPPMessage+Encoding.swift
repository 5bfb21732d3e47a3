import Foundation

extension IPPMessage {
    /// The message as bytes (RFC 8010 §3): the header, each group's tag and
    /// attributes, and the end-of-attributes tag. Written here rather than by
    /// libcups so that a reply is built without C memory; the tests and the
    /// fuzzer read it back with libcups' reader.
    public func encoded() -> [UInt8] {
        var out: [UInt8] = [UInt8(clamping: version.major), UInt8(clamping: version.minor)]
        out.append(contentsOf: Self.bigEndian(UInt16(truncatingIfNeeded: code)))
        out.append(contentsOf: Self.bigEndian(UInt32(truncatingIfNeeded: requestID)))
        for group in groups where group.tag != .none {
            out.append(UInt8(clamping: group.tag.rawValue))
            for attribute in group.attributes { Self.append(attribute, to: &out) }
        }
        out.append(0x03)  // end-of-attributes-tag
        return out
    }

    /// One attribute: its first value with its name, every further value with an empty name.
    private static func append(_ attribute: IPPAttribute, to out: inout [UInt8]) {
        let values = attribute.values.isEmpty ? [IPPValue.outOfBand(.noValue)] : attribute.values
        for (index, value) in values.enumerated() {
            appendValue(value, syntax: attribute.syntax, name: index == 0 ? attribute.name : "", to: &out)
        }
    }

    private static func appendValue(_ value: IPPValue, syntax: IPPSyntax, name: String, to out: inout [UInt8]) {
        func field(_ tag: Int, _ body: [UInt8]) {
            out.append(UInt8(truncatingIfNeeded: tag))
            let nameBytes = Array(name.utf8.prefix(Int(UInt16.max)))
            out.append(contentsOf: bigEndian(UInt16(nameBytes.count)))
            out.append(contentsOf: nameBytes)
            let bodyBytes = body.prefix(Int(UInt16.max))
            out.append(contentsOf: bigEndian(UInt16(bodyBytes.count)))
            out.append(contentsOf: bodyBytes)
        }
        switch value {
        case .integer(let number):
            field(IPPSyntax.integer.rawValue, bigEndian(UInt32(bitPattern: Int32(clamping: number))))
        case .enumValue(let number):
            field(IPPSyntax.enumeration.rawValue, bigEndian(UInt32(bitPattern: Int32(clamping: number))))
        case .boolean(let flag):
            field(IPPSyntax.boolean.rawValue, [flag ? 1 : 0])
        case .string(let text):
            // A language-tagged value is written without its language: the view keeps only the text.
            let tag = syntax == .textWithLanguage ? IPPSyntax.text : syntax == .nameWithLanguage ? .name : syntax
            field(tag.rawValue, Array(text.utf8))
        case .range(let range):
            field(IPPSyntax.rangeOfInteger.rawValue,
                  bigEndian(UInt32(bitPattern: Int32(clamping: range.lowerBound)))
                      + bigEndian(UInt32(bitPattern: Int32(clamping: range.upperBound))))
        case .resolution(let resolution):
            field(IPPSyntax.resolution.rawValue,
                  bigEndian(UInt32(bitPattern: Int32(clamping: resolution.horizontal)))
                      + bigEndian(UInt32(bitPattern: Int32(clamping: resolution.vertical)))
                      + [resolution.unit == .dotsPerInch ? 3 : 4])
        case .dateTime(let date):
            field(IPPSyntax.dateTime.rawValue, dateTime(date))
        case .octets(let bytes):
            field(IPPSyntax.octetString.rawValue, bytes)
        case .outOfBand(let tag):
            field(tag.rawValue, [])
        case .collection(let members):
            field(IPPSyntax.collection.rawValue, [])
            for member in members {
                // memberAttrName carries the member's name as its value, with an empty name of its own.
                out.append(UInt8(IPPSyntax.memberAttrName.rawValue))
                out.append(contentsOf: [0, 0])
                let memberName = Array(member.name.utf8.prefix(Int(UInt16.max)))
                out.append(contentsOf: bigEndian(UInt16(memberName.count)))
                out.append(contentsOf: memberName)
                let memberValues = member.values.isEmpty ? [IPPValue.outOfBand(.noValue)] : member.values
                for memberValue in memberValues { appendValue(memberValue, syntax: member.syntax, name: "", to: &out) }
            }
            out.append(0x37)  // endCollection, with an empty name and value
            out.append(contentsOf: [0, 0, 0, 0])
        }
    }

    /// RFC 2579's DateAndTime in UTC: year, month, day, hour, minutes, seconds, deciseconds, '+', 0, 0.
    private static func dateTime(_ date: Date) -> [UInt8] {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second, .nanosecond], from: date)
        let year = UInt16(clamping: parts.year ?? 1970)
        return bigEndian(year) + [UInt8(parts.month ?? 1), UInt8(parts.day ?? 1), UInt8(parts.hour ?? 0),
                                  UInt8(parts.minute ?? 0), UInt8(parts.second ?? 0),
                                  UInt8((parts.nanosecond ?? 0) / 100_000_000), UInt8(ascii: "+"), 0, 0]
    }

    private static func bigEndian(_ value: UInt16) -> [UInt8] { [UInt8(value >> 8), UInt8(value & 0xFF)] }
    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }
}
