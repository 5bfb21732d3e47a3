import Synchronization
import Foundation
import Mustache

/// A variable tag as written in a text: `{{total}}`, `{{{note}}}`, `{{& item.name}}`.
struct VariableTag {
    var name: String
    var written: String
}

/// A text made ready for swift-mustache, once per distinct text.
///
/// Every variable tag is rewritten to `{{&*N*name}}`:
/// - `&` because swift-mustache escapes HTML unless told otherwise, and a
///   receipt must print `&` and `<` as they are;
/// - `*N*` because swift-mustache only asks "does this object have `name`?"
///   and cannot say whether a variable or a section is asking, nor which tag.
///   The marker (made of characters its tag names allow) tells the lookup
///   objects that a miss on tag N is an error and not a false section.
/// Texts prepared before, shared by every bind in the process: the same
/// template's texts are prepared once, not once per job. Bounded.
final class PreparedTexts: Sendable {
    static let shared = PreparedTexts()
    static let capacity = 4096
    private let cache = Mutex<[String: PreparedText]>([:])

    func prepared(_ text: String) -> PreparedText {
        if let known = cache.withLock({ $0[text] }) { return known }
        let prepared = PreparedText(text)
        cache.withLock { cache in
            if cache.count >= Self.capacity { cache.removeAll() }
            cache[text] = prepared
        }
        return prepared
    }
}

struct PreparedText: Sendable {
    var template: MustacheTemplate?
    var variables: [VariableTag] = []
    var problems: [String] = []

    init(_ text: String) {
        var output = ""
        var rest = Substring(text)
        var open: [String] = []
        while let start = rest.range(of: "{{") {
            output += rest[..<start.lowerBound]
            let inside = rest[start.upperBound...]
            let triple = inside.first == "{"
            guard let close = inside.range(of: triple ? "}}}" : "}}") else {
                problems.append("\(rest[start.lowerBound...].prefix(20))... opens a tag that is not closed with \(triple ? "}}}" : "}}")")
                rest = ""
                break
            }
            let body = inside[..<close.lowerBound]
            let written = "{{\(body)\(triple ? "}}}" : "}}")"
            rest = inside[close.upperBound...]
            switch triple ? "{" : body.first {
            case "{": output += variable(body.dropFirst(), written: written)
            case "&": output += variable(body.dropFirst(), written: written)
            case "#", "^":
                let name = body.dropFirst().trimmingCharacters(in: .whitespaces)
                checkName(name, written: written)
                open.append(name)
                output += written
                if open.count > TemplateLimits.maximumNesting {
                    // swift-mustache parses sections recursively: stop before that can exhaust the stack.
                    problems.append("\(written) is nested \(open.count) deep in this text, more than the "
                                    + "\(TemplateLimits.maximumNesting) levels of {{#sections}} a template may have")
                    return
                }
            case "/":
                let name = body.dropFirst().trimmingCharacters(in: .whitespaces)
                if open.last == name {
                    open.removeLast()
                } else if let inner = open.last {
                    problems.append("\(written) closes a section, but {{#\(inner)}} is still open; close {{#\(inner)}} first")
                } else {
                    problems.append("\(written) closes a section that is not open in this element. "
                                    + "A section that spans blocks is written between them, outside any element")
                }
                output += written
            case "!", "%":  // comments, and the pragmas swift-mustache knows
                output += written
            case "=":
                problems.append("\(written) changes the tag delimiters, which templates do not support; keep {{ and }}")
            case ">", "<", "$":
                problems.append("\(written) is a partial, which templates do not support; write the blocks in the template itself")
            default:
                output += variable(body, written: written)
            }
        }
        output += rest
        for name in open.reversed() {
            problems.append("{{#\(name)}} is not closed: add {{/\(name)}} in the same element")
        }
        guard problems.isEmpty else { return }
        do {
            template = try MustacheTemplate(string: output)
        } catch {
            // The checks above catch what people write by mistake; this is for the rest.
            let reason = (error as? MustacheTemplate.ParserError).map { "\($0.error)" } ?? "\(error)"
            problems.append("the Mustache tags in this text cannot be read (\(reason)); check that every {{ has its }}")
        }
    }

    /// The rewritten form of one variable tag; a problem (and nothing) when the name cannot be used.
    private mutating func variable(_ body: Substring, written: String) -> String {
        let name = body.trimmingCharacters(in: .whitespaces)
        if name == "." { return "{{&.}}" }
        if name.hasPrefix(".") {
            problems.append("\(written): a name that starts with a dot is not supported; write {{\(name.dropFirst())}}")
            return ""
        }
        if name.contains("(") {
            problems.append("\(written): functions in tags are not supported; put the value in the data as it should print")
            return ""
        }
        guard checkName(name, written: written) else { return "" }
        variables.append(VariableTag(name: name, written: written))
        return "{{&*\(variables.count - 1)*\(name)}}"
    }

    /// swift-mustache reads only these characters in a name; anything else breaks the whole text.
    @discardableResult
    private mutating func checkName(_ name: String, written: String) -> Bool {
        if name.isEmpty {
            problems.append("\(written) has no name inside; write the name of a value, like {{total}}")
            return false
        }
        guard name.unicodeScalars.allSatisfy(Self.nameCharacters.contains) else {
            problems.append("\(written): names in tags may use only the letters A-Z and a-z, digits, and . - _ ; "
                            + "rename \"\(name)\" in the data and the template")
            return false
        }
        return true
    }

    private static let nameCharacters = Set("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-_?".unicodeScalars)
}

/// What went unfound or unprintable while one text rendered. A class because
/// swift-mustache holds our lookup objects as `Any` and only calls them.
final class LookupLog {
    /// Indices of variable tags whose name resolved nowhere.
    var missing: [Int] = []
    /// A variable tag (nil for `{{.}}`) that named a list or object.
    var unprintable: [(tag: Int?, value: TemplateData)] = []

    /// `*3*total` back to tag 3 and `total`; nil for a name a section asks for.
    static func variable(_ key: String) -> (tag: Int, name: String)? {
        guard key.first == "*", let end = key.dropFirst().firstIndex(of: "*"),
              let tag = Int(key[key.index(after: key.startIndex)..<end]) else { return nil }
        return (tag, String(key[key.index(after: end)...]))
    }
}

/// The bottom of swift-mustache's context stack: it answers from our own
/// stack of frames (sections between blocks, the data, the built-ins), so a
/// tag in a text finds what Mustache scoping says it should.
struct ContextRoot: MustacheParent, MustacheCustomRenderable {
    let frames: [ContextFrame]
    let variables: [VariableTag]
    let log: LookupLog

    func child(named key: String) -> Any? {
        guard let (tag, name) = LookupLog.variable(key) else {
            return ContextFrame.find(key, in: frames).map { DataValue.forSection($0, log: log) }
        }
        if let value = ContextFrame.find(name, in: frames) { return DataValue(value: value, tag: tag, log: log) }
        // Reached only when no inner value has the name either: it is nowhere.
        if ["page", "pages"].contains(variables[tag].name) { return PageNumberTag(name: name) }
        log.missing.append(tag)
        return nil
    }

    /// `{{.}}` outside any section inside the text: the innermost frame.
    var renderText: String {
        DataValue(value: frames.last?.value ?? .null, tag: nil, log: log).renderText
    }

    var isNull: Bool { false }
}

/// `{{page}}` or `{{pages}}` kept for the page renderer, which numbers pages in headers and footers.
struct PageNumberTag: MustacheCustomRenderable {
    let name: String
    var renderText: String { "{{\(name)}}" }
    var isNull: Bool { false }
}

/// A data value as swift-mustache sees it.
struct DataValue: MustacheParent, MustacheCustomRenderable {
    let value: TemplateData
    /// The variable tag whose dotted name is being walked: a miss is then that tag's error.
    let tag: Int?
    let log: LookupLog

    /// What a section gets: a Swift array to repeat over and a Bool to test,
    /// which is how swift-mustache recognises them; other values as themselves.
    static func forSection(_ value: TemplateData, log: LookupLog) -> Any {
        switch value {
        case .array(let items): items.map { DataValue(value: $0, tag: nil, log: log) }
        case .bool(let flag): flag
        default: DataValue(value: value, tag: nil, log: log)
        }
    }

    func child(named key: String) -> Any? {
        if let (tag, name) = LookupLog.variable(key) {
            // A tag's first name, tried on a value a section pushed: a miss falls through to outer values.
            return value[name].map { DataValue(value: $0, tag: tag, log: log) }
        }
        guard let tag else { return value[key].map { DataValue.forSection($0, log: log) } }
        guard let found = value[key] else {
            log.missing.append(tag)  // `a.b` found `a` but not `b`: Mustache does not look further
            return nil
        }
        return DataValue(value: found, tag: tag, log: log)
    }

    var renderText: String {
        if let printed = value.printed { return printed }
        log.unprintable.append((tag, value))
        return ""
    }

    /// Null, false, zero and "" do not show a section inside a text, as between blocks.
    var isNull: Bool { !value.isTruthy }
}
