import Foundation
import IPP

// The syntaxes a printer answers with that `IPPAttribute`'s builders, made
// for a client's requests, do not have.
extension IPPAttribute {
    static func strings(_ name: String, _ syntax: IPPSyntax, _ values: [String]) -> IPPAttribute {
        IPPAttribute(name: name, syntax: syntax, values: values.map(IPPValue.string))
    }
    static func keywords(_ name: String, _ values: [String]) -> IPPAttribute { strings(name, .keyword, values) }
    static func uri(_ name: String, _ values: String...) -> IPPAttribute { strings(name, .uri, values) }
    static func nameValue(_ name: String, _ value: String) -> IPPAttribute { strings(name, .name, [value]) }
    static func mimeTypes(_ name: String, _ values: [String]) -> IPPAttribute { strings(name, .mimeMediaType, values) }
    static func enums(_ name: String, _ values: [Int]) -> IPPAttribute {
        IPPAttribute(name: name, syntax: .enumeration, values: values.map(IPPValue.enumValue))
    }
    static func integers(_ name: String, _ values: [Int]) -> IPPAttribute {
        IPPAttribute(name: name, syntax: .integer, values: values.map(IPPValue.integer))
    }
    static func dateTime(_ name: String, _ date: Date) -> IPPAttribute {
        IPPAttribute(name: name, syntax: .dateTime, values: [.dateTime(date)])
    }
    static func noValue(_ name: String) -> IPPAttribute {
        IPPAttribute(name: name, syntax: .noValue, values: [.outOfBand(.noValue)])
    }
    static func collections(_ name: String, _ values: [[IPPAttribute]]) -> IPPAttribute {
        IPPAttribute(name: name, syntax: .collection, values: values.map(IPPValue.collection))
    }
    /// An attribute echoed in the unsupported group: the value the client sent is not supported.
    static func unsupported(_ name: String) -> IPPAttribute {
        IPPAttribute(name: name, syntax: .unsupported, group: .unsupported, values: [.outOfBand(.unsupported)])
    }

    /// The same attribute in another group.
    func inGroup(_ group: IPPGroup) -> IPPAttribute {
        var copy = self
        copy.group = group
        return copy
    }
}
