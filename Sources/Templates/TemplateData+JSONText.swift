extension TemplateData {
    /// The value as compact JSON text, the form a job stores its data in.
    /// Object members are written in name order, so equal data gives equal text.
    public var jsonText: String {
        switch self {
        case .null: "null"
        case .bool(let flag): flag ? "true" : "false"
        case .integer(let number): String(number)
        case .number(let number): number.isFinite ? String(number) : "null"
        case .string(let text): Self.quoted(text)
        case .array(let items): "[" + items.map(\.jsonText).joined(separator: ",") + "]"
        case .object(let members):
            "{" + members.sorted { $0.key < $1.key }.map { Self.quoted($0.key) + ":" + $0.value.jsonText }
                .joined(separator: ",") + "}"
        }
    }

    private static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
