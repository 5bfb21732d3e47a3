import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
public import PrintModel

/// Reads the template markup into a `LayoutDocument`.
///
/// ```swift
/// let document = try TemplateParser.parse(text, file: "receipt.xml")
/// ```
/// All problems are collected and thrown together, each with its line and column.
public enum TemplateParser {
    public static func parse(_ text: String, file: String) throws(TemplateErrors) -> LayoutDocument {
        let size = text.utf8.count
        guard size <= TemplateLimits.maximumTemplateBytes else {
            throw TemplateErrors([TemplateDiagnostic(
                "the template is \(size) bytes, more than the "
                    + "\(TemplateLimits.describe(limit: TemplateLimits.maximumTemplateBytes)) a template may be. "
                    + "A template describes one layout; repeat blocks with a {{#section}} over the data instead of writing them out.",
                at: SourceLocation(file: file, line: 1, column: 1))])
        }
        let builder = MarkupBuilder(source: text, file: file)
        let parser = XMLParser(data: Data(text.utf8))
        parser.delegate = builder
        parser.shouldResolveExternalEntities = false  // a template never reaches outside its file
        _ = parser.parse()  // FoundationXML may answer true after reporting errors: trust the delegate
        if let failure = parser.parserError, builder.problems.isEmpty {
            builder.problems.append(TemplateDiagnostic("the file is not well-formed XML (\(failure.localizedDescription)).",
                                                       at: builder.location(line: parser.lineNumber, column: parser.columnNumber)))
        }
        guard builder.problems.isEmpty, let document = builder.document else {
            throw TemplateErrors(builder.problems.isEmpty
                ? [TemplateDiagnostic("the file has no <template> element.", at: builder.location(line: 1, column: 1))]
                : builder.problems)
        }
        return document
    }
}

/// The XMLParser delegate that builds the tree with a stack of open elements
/// and of Mustache sections written between blocks.
final class MarkupBuilder: NSObject, XMLParserDelegate {
    struct Frame {
        var element: String  // an element name, or "{{#name}}" / "{{^name}}" for a section
        var attributes: [String: String]
        var location: SourceLocation
        var children: [LayoutNode] = []
        var header: [LayoutNode] = []
        var footer: [LayoutNode] = []
        var columns: [Column] = []
        var text = ""
    }

    let file: String
    private let lines: [Substring]
    private var stack: [Frame] = []
    /// Set once the nesting limit is passed or the XML is not well-formed:
    /// the rest of the file is not read (the parse is aborted at the next
    /// element or text).
    private(set) var stopped = false
    var problems: [TemplateDiagnostic] = []
    var document: LayoutDocument?

    init(source: String, file: String) {
        self.file = file
        self.lines = source.split(separator: "\n", omittingEmptySubsequences: false)
    }

    func location(line: Int, column: Int) -> SourceLocation {
        SourceLocation(file: file, line: max(line, 1), column: max(column, 1))
    }

    /// XMLParser reports the position just after a start tag; people want where it begins.
    private func startOfTag(_ name: String, line: Int, column: Int) -> SourceLocation {
        var lineIndex = min(max(line - 1, 0), max(lines.count - 1, 0))
        var limit = column
        while lineIndex >= 0, !lines.isEmpty {
            let text = Array(lines[lineIndex])
            let end = min(limit, text.count)
            let needle = Array("<" + name)
            var index = end - needle.count
            while index >= 0 {
                if Array(text[index..<index + needle.count]) == needle {
                    return location(line: lineIndex + 1, column: index + 1)
                }
                index -= 1
            }
            lineIndex -= 1
            limit = Int.max
        }
        return location(line: line, column: column)
    }

    private var currentLocation: SourceLocation = SourceLocation(file: "", line: 1, column: 1)

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:]) {
        guard !stopped else { parser.abortParsing(); return }
        let here = startOfTag(name, line: parser.lineNumber, column: parser.columnNumber)
        flushText(at: here)
        guard !stopped, mayOpen(name, at: here) else { parser.abortParsing(); return }
        guard let allowed = Vocabulary.attributes[name] else {
            let hint = Vocabulary.suggestion(for: name, among: Vocabulary.attributes.keys).map { " Did you mean <\($0)>?" } ?? ""
            problems.append(TemplateDiagnostic("unknown element <\(name)>.\(hint) Elements: "
                + Vocabulary.attributes.keys.sorted().map { "<\($0)>" }.joined(separator: ", ") + ".", at: here))
            stack.append(Frame(element: "?", attributes: [:], location: here))
            return
        }
        for attribute in attributes.keys.sorted() where !allowed.contains(attribute) {
            let hint = Vocabulary.suggestion(for: attribute, among: allowed).map { " Did you mean \($0)?" } ?? ""
            let known = allowed.isEmpty ? "it takes no attributes" : "it takes " + allowed.sorted().joined(separator: ", ")
            problems.append(TemplateDiagnostic("<\(name)> has no attribute \(attribute).\(hint) (\(known).)", at: here))
        }
        if let parent = stack.last?.element {
            checkPlacement(name, in: parent, at: here)
        } else if name != "template" {
            problems.append(TemplateDiagnostic("a template starts with <template>, not <\(name)>.", at: here))
        }
        stack.append(Frame(element: name, attributes: attributes, location: here))
    }

    private func checkPlacement(_ name: String, in parent: String, at here: SourceLocation) {
        let ok: Bool
        switch parent {
        case "template": ok = Vocabulary.blocks.contains(name) || name == "header" || name == "footer"
        case "header", "footer", "box": ok = Vocabulary.blocks.contains(name) && name != "cut"
        case "row": ok = name == "col"
        case "text", "col": ok = name == "br"
        case "?": ok = true
        default: ok = parent.hasPrefix("{{") ? Vocabulary.blocks.contains(name) : false
        }
        if !ok {
            problems.append(TemplateDiagnostic("<\(name)> cannot stand inside <\(parent)>.", at: here))
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        guard !stopped else { parser.abortParsing(); return }
        guard !stack.isEmpty else { return }
        stack[stack.count - 1].text += string
        currentLocation = location(line: parser.lineNumber, column: parser.columnNumber)
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        guard !stopped else { parser.abortParsing(); return }
        let here = location(line: parser.lineNumber, column: parser.columnNumber)
        if name == "br" {
            _ = stack.popLast()
            if !stack.isEmpty { stack[stack.count - 1].text += "\u{2028}" }  // a line break that survives whitespace folding
            return
        }
        if !["text", "col", "barcode"].contains(name) { flushText(at: here) }
        if stopped { parser.abortParsing(); return }
        while let top = stack.last, top.element.hasPrefix("{{") {
            problems.append(TemplateDiagnostic("\(top.element) is not closed before </\(name)>.", at: top.location))
            closeSection(at: here)
        }
        guard let frame = stack.popLast() else { return }
        guard frame.element != "?" else { return }
        if frame.element == "template" {
            document = makeDocument(frame)
            return
        }
        // Found by the fuzzer: a root element other than <template> closed with
        // nothing around it to hold it, and the index below trapped.
        guard !stack.isEmpty else {
            problems.append(TemplateDiagnostic("<\(frame.element)> must be inside <template>.", at: frame.location))
            return
        }
        switch frame.element {
        case "header": stack[stack.count - 1].header += frame.children
        case "footer": stack[stack.count - 1].footer += frame.children
        case "col": if let column = makeColumn(frame) { stack[stack.count - 1].columns.append(column) }
        default: if let node = makeNode(frame) { stack[stack.count - 1].children.append(node) }
        }
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
        guard !stopped else { return }  // the parse was stopped on purpose, and the reason is recorded
        let code = (parseError as NSError).code
        let what = switch code {
        case 76: "an element is closed with the wrong end tag, or not closed at all"
        case 5: "the file ends before every element is closed"
        case 9, 68, 23: "a '<' or '&' that is not markup: write &lt; and &amp; in text"
        case 41: "an attribute value must be in quotes"
        default: "the file is not well-formed XML (XML error \(code))"
        }
        let here = location(line: parser.lineNumber, column: parser.columnNumber)
        if !problems.contains(where: { $0.location == here }) {
            problems.append(TemplateDiagnostic(what + ".", at: here))
        }
        // Past its first error libxml2 (in the recover mode FoundationXML
        // sets) reports a cascade of others, and FoundationXML on Linux leaks
        // the strings of every one it turns into an NSError (about 7 KB a
        // parse of a mangled receipt, which grew the template fuzzer to
        // 512 MB): the parse is aborted at the next element or text, since
        // the first error is the one to fix. Not here: libxml2 2.9 frees the
        // input under itself when stopped from an error about the encoding
        // (a template starting with NUL bytes crashed in xmlParseChunk).
        stopped = true
    }

    // MARK: - Sections written between blocks

    /// Text at block level may only be Mustache section tags; they open and close section frames.
    private func flushText(at here: SourceLocation) {
        guard let top = stack.last, !["text", "col", "barcode", "?"].contains(top.element) else { return }
        let text = top.text
        stack[stack.count - 1].text = ""
        var rest = Substring(text)
        while let open = rest.range(of: "{{") {
            let before = rest[..<open.lowerBound]
            if !before.allSatisfy(\.isWhitespace) { strayText(String(before), at: here) }
            guard let close = rest.range(of: "}}", range: open.upperBound..<rest.endIndex) else {
                strayText(String(rest), at: here); return
            }
            let tag = rest[open.upperBound..<close.lowerBound].trimmingCharacters(in: .whitespaces)
            if let kind = tag.first, kind == "#" || kind == "^" {
                let name = tag.dropFirst().trimmingCharacters(in: .whitespaces)
                let written = text.distance(from: open.lowerBound, to: text.endIndex)
                guard mayOpen("{{\(kind)\(name)}}", at: place(written, before: here, of: "{{") ?? here) else { return }
                stack.append(Frame(element: "{{\(kind)\(name)}}", attributes: [:], location: here))
            } else if tag.first == "/" {
                let name = tag.dropFirst().trimmingCharacters(in: .whitespaces)
                if let top = stack.last, top.element.hasPrefix("{{"), top.element.dropFirst(3).dropLast(2) == Substring(name) {
                    closeSection(at: here)
                } else {
                    problems.append(TemplateDiagnostic("{{/\(name)}} closes a section that is not open here.", at: here))
                }
            } else {
                strayText("{{\(tag)}}", at: here)
            }
            rest = rest[close.upperBound...]
        }
        if !rest.allSatisfy(\.isWhitespace) { strayText(String(rest), at: here) }
    }

    /// Whether one more element or section may open here: past
    /// `TemplateLimits.maximumNesting` the problem is recorded and reading stops,
    /// before the tree is deep enough to exhaust the stack of whatever walks it.
    private func mayOpen(_ element: String, at here: SourceLocation) -> Bool {
        guard stack.count >= TemplateLimits.maximumNesting else { return true }
        let what = element.hasPrefix("{{") ? element : "<\(element)>"
        problems.append(TemplateDiagnostic(
            "\(what) is nested \(stack.count + 1) deep, more than the \(TemplateLimits.maximumNesting) levels of elements "
                + "and {{#sections}} a template may have; the rest of the file was not read. "
                + "Check for sections or elements that are opened and never closed.", at: here))
        stopped = true
        return false
    }

    /// Where a text's character stands that is `distance` characters before
    /// `end`, the start of the tag that ends the text; nil when the source
    /// there does not start with `expected` (entities or line endings made the
    /// text differ from the file), so the caller keeps `end`.
    private func place(_ distance: Int, before end: SourceLocation, of expected: String) -> SourceLocation? {
        var line = end.line, column = end.column, remaining = distance
        while remaining > 0 {
            if column > 1 {
                let step = min(remaining, column - 1)
                column -= step
                remaining -= step
            } else if line > 1, line - 1 <= lines.count {
                line -= 1
                column = lines[line - 1].count + 1  // the line break itself
                remaining -= 1
            } else {
                return nil
            }
        }
        guard line >= 1, line <= lines.count, lines[line - 1].dropFirst(column - 1).hasPrefix(expected) else { return nil }
        return location(line: line, column: column)
    }

    private func strayText(_ text: String, at here: SourceLocation) {
        let shown = text.trimmingCharacters(in: .whitespacesAndNewlines).prefix(40)
        let firstLine = String(shown.prefix { $0 != "\n" })
        problems.append(TemplateDiagnostic("text \"\(shown)\" must be inside <text> (or a <col> of a <row>).",
                                           at: find(firstLine, atOrBefore: here) ?? here))
    }

    /// Where `snippet` last occurs at or before `limit`: text is reported by
    /// XMLParser only when the next tag starts, so its own place is looked up.
    private func find(_ snippet: String, atOrBefore limit: SourceLocation) -> SourceLocation? {
        guard !snippet.isEmpty else { return nil }
        for lineIndex in stride(from: min(limit.line, lines.count) - 1, through: 0, by: -1) {
            if let range = lines[lineIndex].range(of: snippet, options: .backwards) {
                let column = lines[lineIndex].distance(from: lines[lineIndex].startIndex, to: range.lowerBound) + 1
                return location(line: lineIndex + 1, column: column)
            }
        }
        return nil
    }

    private func closeSection(at here: SourceLocation) {
        guard let frame = stack.popLast() else { return }
        let inverted = frame.element.hasPrefix("{{^")
        let name = String(frame.element.dropFirst(3).dropLast(2))
        let section = Section(name: name, inverted: inverted, children: frame.children, location: frame.location)
        stack[stack.count - 1].children.append(.section(section))
    }
}
