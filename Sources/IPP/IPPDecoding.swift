import CCups
import Foundation

// Conversion of libcups' ipp_t into the Swift view. Everything here reads
// through libcups' accessors (ippGetInteger, ippGetString...) rather than the
// struct layout, which libcups keeps private. No pointer survives the call.

extension IPPResponse {
    /// Copies a reply out of libcups. `ipp` stays owned by the caller.
    init(copying ipp: OpaquePointer) {
        let status = ippGetStatusCode(ipp)
        var groups: [IPPAttributeGroup] = []
        var startNewGroup = true
        var attribute = ippFirstAttribute(ipp)
        while let current = attribute {
            defer { attribute = ippNextAttribute(ipp) }
            // libcups marks a group boundary with a nameless separator attribute.
            guard let converted = IPPAttribute(copying: current, inCollection: false) else {
                startNewGroup = true
                continue
            }
            if startNewGroup || groups.last?.tag != converted.group {
                groups.append(IPPAttributeGroup(tag: converted.group, attributes: []))
                startNewGroup = false
            }
            groups[groups.count - 1].attributes.append(converted)
        }
        self.init(statusCode: Int(status.rawValue), statusName: String(cString: ippErrorString(status)),
                  requestID: Int(ippGetRequestId(ipp)), groups: groups)
    }
}

extension IPPAttribute {
    /// Copies one attribute; nil for a group separator (an attribute without a name).
    init?(copying attr: OpaquePointer, inCollection: Bool) {
        guard let cName = ippGetName(attr) else { return nil }
        // IPP_TAG_CUPS_CONST is a libcups-internal flag bit; mask it off.
        let rawTag = Int(ippGetValueTag(attr).rawValue & 0x7fff_ffff)
        let syntax = IPPSyntax(rawValue: rawTag)
        let group = inCollection ? IPPGroup.none : IPPGroup(rawValue: Int(ippGetGroupTag(attr).rawValue))
        let count = Int(ippGetCount(attr))
        var values: [IPPValue] = []
        values.reserveCapacity(count)
        for index in 0..<Int32(clamping: count) {
            values.append(Self.value(of: attr, at: index, syntax: syntax))
        }
        self.init(name: String(cString: cName), syntax: syntax, group: group, values: values)
    }

    private static func value(of attr: OpaquePointer, at index: Int32, syntax: IPPSyntax) -> IPPValue {
        switch syntax {
        case .integer:
            return .integer(Int(ippGetInteger(attr, index)))
        case .enumeration:
            return .enumValue(Int(ippGetInteger(attr, index)))
        case .boolean:
            return .boolean(ippGetBoolean(attr, index) != 0)
        case .rangeOfInteger:
            var upper: Int32 = 0
            let lower = ippGetRange(attr, index, &upper)
            // ClosedRange traps on lower > upper: a broken range becomes out-of-band.
            return lower <= upper ? .range(Int(lower)...Int(upper)) : .outOfBand(.unknown)
        case .resolution:
            var vertical: Int32 = 0
            var units = ipp_res_t(rawValue: 0)
            let horizontal = ippGetResolution(attr, index, &vertical, &units)
            return .resolution(IPPResolution(horizontal: Int(horizontal), vertical: Int(vertical),
                                             unit: units == IPP_RES_PER_CM ? .dotsPerCentimetre : .dotsPerInch))
        case .collection:
            guard let collection = ippGetCollection(attr, index) else { return .outOfBand(.noValue) }
            return .collection(members(of: collection))
        case .dateTime:
            guard let date = ippGetDate(attr, index) else { return .outOfBand(.noValue) }
            return .dateTime(Date(timeIntervalSince1970: TimeInterval(ippDateToTime(date))))
        case .octetString:
            var length: Int32 = 0
            guard let bytes = ippGetOctetString(attr, index, &length), length > 0 else { return .octets([]) }
            return .octets(Array(UnsafeRawBufferPointer(start: bytes, count: Int(length))))
        case .text, .name, .keyword, .uri, .uriScheme, .charset, .naturalLanguage, .mimeMediaType,
             .memberAttrName, .textWithLanguage, .nameWithLanguage:
            guard let cString = ippGetString(attr, index, nil) else { return .string("") }
            return .string(String(cString: cString))
        default:
            // no-value, unknown, unsupported and any tag we do not read.
            return .outOfBand(syntax)
        }
    }

    /// A collection's members. Walks the collection's own ipp_t, so the outer
    /// iteration (which lives in the parent ipp_t) is undisturbed.
    private static func members(of collection: OpaquePointer) -> [IPPAttribute] {
        var members: [IPPAttribute] = []
        var member = ippFirstAttribute(collection)
        while let current = member {
            if let converted = IPPAttribute(copying: current, inCollection: true) { members.append(converted) }
            member = ippNextAttribute(collection)
        }
        return members
    }
}
