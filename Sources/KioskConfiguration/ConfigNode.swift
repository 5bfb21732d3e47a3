import TOMLKit
import Templates

/// A configuration file's content as plain values, read once from TOMLKit's
/// tree. TOMLKit's types are reference types around C++ objects; everything
/// after parsing works on this instead, which is `Sendable` and ordered.
enum ConfigNode: Sendable {
    case table([(key: String, value: ConfigNode)])
    case array([ConfigNode])
    case string(String)
    case integer(Int)
    case number(Double)
    case boolean(Bool)
    /// Dates and times, which no key takes: kept as their TOML text for messages.
    case other(String)

    /// What a message calls this kind of value.
    var kindName: String {
        switch self {
        case .table: "a table"
        case .array: "a list"
        case .string: "text"
        case .integer: "a whole number"
        case .number: "a number"
        case .boolean: "true or false"
        case .other: "a date or time"
        }
    }

    /// The value as a user wrote it, for messages.
    var shortText: String {
        switch self {
        case .table: "a table"
        case .array: "a list"
        case .string(let text): "\"\(text)\""
        case .integer(let value): String(value)
        case .number(let value): String(value)
        case .boolean(let value): String(value)
        case .other(let text): text
        }
    }
}

/// Parses TOML text into a ``ConfigNode`` table.
enum TOMLText {
    /// The document's top-level table, or the syntax error at its line and column.
    static func parse(_ text: String) throws(ConfigurationProblem) -> ConfigNode {
        // TOML allows no control character but tab, line feed and carriage
        // return, and toml++ (inside TOMLKit) stops the whole process on an
        // internal assertion for some of them in a table header (found by
        // scripts/fuzz.sh: `[\u{1A}\u{1A}[button]]` aborted `config check`, and
        // would have taken a running agent down on SIGHUP). They are refused
        // here, and so is a table header that does not start with a key
        // (`[[[button]]`), which trips the same assertion.
        if let problem = controlCharacter(in: text) ?? TableHeaders.problem(in: text) { throw problem }
        do {
            return node(try TOMLTable(string: text))
        } catch let error as TOMLParseError {
            throw ConfigurationProblem(line: error.source.begin.line, column: error.source.begin.column,
                                       message: "this is not valid TOML: \(error.description). "
                                           + "Fix the line (TOML: key = \"text\", key = 12, [table], [[list of tables]]).")
        } catch {
            throw ConfigurationProblem(message: "this is not valid TOML: \(error).")
        }
    }

    /// The first control character TOML does not allow, at its line and column.
    static func controlCharacter(in text: String) -> ConfigurationProblem? {
        var line = 1, column = 1
        for scalar in text.unicodeScalars {
            if scalar == "\n" {
                line += 1
                column = 1
                continue
            }
            if (scalar.value < 0x20 && scalar != "\t" && scalar != "\r") || scalar.value == 0x7F {
                let code = String(scalar.value, radix: 16, uppercase: true)
                return ConfigurationProblem(line: line, column: column,
                                            message: "a control character (U+\(String(repeating: "0", count: max(0, 4 - code.count)))\(code)) "
                                                + "is not allowed in a TOML file. Remove it (an editor that shows invisible characters helps).")
            }
            column += 1
        }
        return nil
    }

    private static func node(_ table: TOMLTable) -> ConfigNode {
        .table(table.map { (key: $0.0, value: node($0.1.tomlValue)) })
    }

    private static func node(_ value: TOMLValue) -> ConfigNode {
        switch value.type {
        case .table: value.table.map(node) ?? .other("")
        case .array: .array(value.array.map { $0.map { node($0.tomlValue) } } ?? [])
        case .string: .string(value.string ?? "")
        case .int: .integer(value.int ?? 0)
        case .double: .number(value.double ?? 0)
        case .bool: .boolean(value.bool ?? false)
        case .date, .time, .dateTime: .other(value.debugDescription)
        }
    }
}

/// Configuration values as template data, for a button's fixed data.
enum TemplateValues {
    static func data(_ node: ConfigNode) -> TemplateData {
        switch node {
        case .table(let entries): .object(Dictionary(entries.map { ($0.key, data($0.value)) }) { _, last in last })
        case .array(let items): .array(items.map(data))
        case .string(let text), .other(let text): .string(text)
        case .integer(let number): .integer(number)
        case .number(let number): .number(number)
        case .boolean(let flag): .bool(flag)
        }
    }
}
