import Foundation
import PrintModel
import Templates

/// Problems found while reading one file, collected so all are reported at once.
final class ProblemLog {
    private(set) var problems: [ConfigurationProblem] = []

    func add(_ key: String, _ message: String) {
        problems.append(ConfigurationProblem(key: key, message: message))
    }
}

/// Reads the keys of one TOML table, remembering which keys it was asked
/// for, so whatever is left over can be reported as unknown.
final class TableReader {
    /// This table's path, e.g. `button[1].press`; empty at the top level.
    let path: String
    private let entries: [(key: String, value: ConfigNode)]
    private let log: ProblemLog
    private var asked: [String] = []

    init(path: String, node: ConfigNode, log: ProblemLog) {
        self.path = path
        self.log = log
        if case .table(let entries) = node { self.entries = entries } else { self.entries = [] }
    }

    /// The full path of one of this table's keys.
    func key(_ name: String) -> String { path.isEmpty ? name : "\(path).\(name)" }

    func problem(_ name: String, _ message: String) { log.add(key(name), message) }

    /// The value written for `name`, marking the key as known.
    func value(_ name: String) -> ConfigNode? {
        asked.append(name)
        return entries.first { $0.key == name }?.value
    }

    func has(_ name: String) -> Bool { entries.contains { $0.key == name } }

    func string(_ name: String) -> String? {
        guard let node = value(name) else { return nil }
        guard case .string(let text) = node else {
            problem(name, "expected text in quotes, found \(node.kindName) (\(node.shortText)).")
            return nil
        }
        return text
    }

    func requiredString(_ name: String, example: String) -> String? {
        guard has(name) else {
            problem(name, "is required; for example \(name) = \(example).")
            _ = value(name)
            return nil
        }
        guard let text = string(name) else { return nil }
        guard !text.trimmingCharacters(in: .whitespaces).isEmpty else {
            problem(name, "is empty; for example \(name) = \(example).")
            return nil
        }
        return text
    }

    func integer(_ name: String, in range: ClosedRange<Int>) -> Int? {
        guard let node = value(name) else { return nil }
        guard case .integer(let number) = node else {
            problem(name, "expected a whole number, found \(node.kindName) (\(node.shortText)).")
            return nil
        }
        guard range.contains(number) else {
            problem(name, "\(number) is out of range; give \(range.lowerBound) to \(range.upperBound).")
            return nil
        }
        return number
    }

    func boolean(_ name: String) -> Bool? {
        guard let node = value(name) else { return nil }
        guard case .boolean(let flag) = node else {
            problem(name, "expected true or false (without quotes), found \(node.shortText).")
            return nil
        }
        return flag
    }

    func duration(_ name: String, in range: ClosedRange<Duration>) -> Duration? {
        guard let text = string(name) else { return nil }
        do {
            let duration = try ConfigValues.duration(text)
            guard range.contains(duration) else {
                problem(name, "\"\(text)\" is out of range; give \(ConfigValues.describe(range.lowerBound)) to \(ConfigValues.describe(range.upperBound)).")
                return nil
            }
            return duration
        } catch {
            problem(name, error.message)
            return nil
        }
    }

    func size(_ name: String) -> Int64? {
        guard let text = string(name) else { return nil }
        do { return try ConfigValues.size(text) } catch {
            problem(name, error.message)
            return nil
        }
    }

    func role(_ name: String) -> Role? {
        guard let text = string(name) else { return nil }
        do { return try Role(text) } catch {
            problem(name, "\(error)")
            return nil
        }
    }

    func choice(_ name: String, from choices: [String]) -> String? {
        guard let text = string(name) else { return nil }
        guard choices.contains(text) else {
            problem(name, "\"\(text)\" is not one of \(choices.map { "\"\($0)\"" }.joined(separator: ", ")).")
            return nil
        }
        return text
    }

    func stringList(_ name: String) -> [String]? {
        guard let node = value(name) else { return nil }
        switch node {
        case .string(let one): return [one]
        case .array(let items):
            var texts: [String] = []
            for (index, item) in items.enumerated() {
                guard case .string(let text) = item else {
                    log.add("\(key(name))[\(index + 1)]", "expected text in quotes, found \(item.kindName).")
                    continue
                }
                texts.append(text)
            }
            return texts
        default:
            problem(name, "expected a list of text, e.g. [\"/etc/kioskprint/templates\"], found \(node.kindName).")
            return nil
        }
    }

    /// A sub-table (`[name]` or `name = { ... }`).
    func table(_ name: String) -> TableReader? {
        guard let node = value(name) else { return nil }
        guard case .table = node else {
            problem(name, "expected a table ([\(key(name))]), found \(node.kindName).")
            return nil
        }
        return TableReader(path: key(name), node: node, log: log)
    }

    /// A list of tables (`[[name]]`), each with its 1-based index in its path.
    func tables(_ name: String) -> [TableReader] {
        guard let node = value(name) else { return [] }
        guard case .array(let items) = node else {
            problem(name, "expected one or more [[\(name)]] tables, found \(node.kindName).")
            return []
        }
        return items.enumerated().compactMap { index, item in
            let itemPath = "\(key(name))[\(index + 1)]"
            guard case .table = item else {
                log.add(itemPath, "expected a [[\(name)]] table, found \(item.kindName).")
                return nil
            }
            return TableReader(path: itemPath, node: item, log: log)
        }
    }

    /// Every entry of a table whose keys are names of the user's choosing
    /// (`[role.receipt]`, `[role.coupon]`), each of which must be a table.
    func namedTables() -> [(name: String, table: TableReader)] {
        entries.compactMap { entry in
            asked.append(entry.key)
            guard case .table = entry.value else {
                problem(entry.key, "expected a table ([\(key(entry.key))]), found \(entry.value.kindName).")
                return nil
            }
            return (entry.key, TableReader(path: key(entry.key), node: entry.value, log: log))
        }
    }

    /// The raw table, for free-form data such as a button's fixed template data.
    func rawTable(_ name: String) -> [(key: String, value: ConfigNode)]? {
        guard let node = value(name) else { return nil }
        guard case .table(let entries) = node else {
            problem(name, "expected a table ([\(key(name))]), found \(node.kindName).")
            return nil
        }
        return entries
    }

    /// Reports every key nobody asked for, with the nearest known key.
    func rejectUnknownKeys() {
        for entry in entries where !asked.contains(entry.key) {
            var message = "is not a known key here."
            if let near = Spelling.nearest(to: entry.key, among: asked, within: max(2, entry.key.count / 3)) { message += " Did you mean \"\(near)\"?" }
            message += " Known keys: \(asked.joined(separator: ", "))."
            problem(entry.key, message)
        }
    }
}
