import Mustache

/// Binds a job's data onto a parsed template: sections written between
/// blocks are expanded (repeated, shown or dropped), and the Mustache tags in
/// text, columns, barcode data and image sources are filled in.
///
/// ```swift
/// let document = try TemplateParser.parse(xml, file: "receipt.xml")
/// let data = try TemplateData(json: json, file: "receipt.json")
/// let bound = try DataBinder.bind(document, data: data, builtIns: ["now": "2025-11-23 09:01"])
/// ```
///
/// The result has no `.section` nodes. Its text holds no tags, except
/// `{{page}}` and `{{pages}}` when the data has no such values: the page
/// renderer numbers the pages. Values are inserted as they are, without
/// HTML escaping: `&` and `<` print as themselves.
///
/// A variable tag whose name the data does not have is an error (a section
/// on a missing name is not: it is simply false, as in Mustache).
public enum DataBinder {
    /// Binds `data` onto `document`, or throws every problem found, each at
    /// the block that holds it.
    ///
    /// - Parameter builtIns: values the agent provides (`now`, `box`,
    ///   `counter`...), found when the data has no value of the same name.
    public static func bind(_ document: LayoutDocument, data: TemplateData,
                            builtIns: [String: TemplateData] = [:]) throws(TemplateErrors) -> LayoutDocument {
        let result = bindReporting(document, data: data, builtIns: builtIns)
        guard result.diagnostics.isEmpty else { throw TemplateErrors(result.diagnostics) }
        return result.document
    }

    /// Binds as well as it can and returns the problems beside the result, for
    /// a preview that shows what it can while listing what is wrong. A missing
    /// value prints as nothing.
    public static func bindReporting(_ document: LayoutDocument, data: TemplateData,
                                     builtIns: [String: TemplateData] = [:])
        -> (document: LayoutDocument, diagnostics: [TemplateDiagnostic]) {
        let binding = Binding()
        let frames = [ContextFrame(value: .object(builtIns)), ContextFrame(value: data)]
        var bound = document
        bound.header = binding.bind(document.header, frames: frames)
        bound.body = binding.bind(document.body, frames: frames)
        bound.footer = binding.bind(document.footer, frames: frames)
        // Sorted so that the report reads top to bottom like the file (the footer may be written anywhere).
        let diagnostics = binding.diagnostics.enumerated().sorted { lhs, rhs in
            (lhs.element.location.line, lhs.element.location.column, lhs.offset)
                < (rhs.element.location.line, rhs.element.location.column, rhs.offset)
        }.map(\.element)
        return (bound, diagnostics)
    }
}

/// One level of the context stack that names are looked up in.
struct ContextFrame {
    var value: TemplateData
    /// Set when the frame is one item of a repeated section, to name it in errors.
    var item: (number: Int, list: String)? = nil

    /// The first frame, innermost first, with a member `name`.
    static func find(_ name: String, in frames: [ContextFrame]) -> TemplateData? {
        for frame in frames.reversed() {
            if let value = frame.value[name] { return value }
        }
        return nil
    }

    /// A Mustache name: `.` is the innermost value, `a.b` walks from the
    /// first frame that has `a` (and does not fall back if `b` is missing there).
    static func resolve(_ name: String, in frames: [ContextFrame]) -> TemplateData? {
        if name == "." { return frames.last?.value }
        var parts = name.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        var value: TemplateData?
        if parts.first == "" {  // `.name` is looked up in the innermost value only
            parts.removeFirst()
            value = frames.last?.value
        } else {
            value = find(parts.removeFirst(), in: frames)
        }
        for part in parts { value = value?[part] }
        return value
    }
}

/// The state of one bind call: diagnostics so far and the texts already prepared.
final class Binding {
    private(set) var diagnostics: [TemplateDiagnostic] = []
    private var reported: Set<String> = []
    private var prepared: [String: PreparedText] = [:]

    func bind(_ nodes: [LayoutNode], frames: [ContextFrame]) -> [LayoutNode] {
        var result: [LayoutNode] = []
        result.reserveCapacity(nodes.count)
        for node in nodes {
            switch node {
            case .text(var text):
                text.content = render(text.content, frames: frames, at: text.location, in: "<text>")
                result.append(.text(text))
            case .row(var row):
                for index in row.columns.indices {
                    let column = row.columns[index]
                    row.columns[index].content = render(column.content, frames: frames, at: column.location, in: "<col>")
                }
                result.append(.row(row))
            case .image(var image):
                image.source = render(image.source, frames: frames, at: image.location, in: "the src of <image>")
                result.append(.image(image))
            case .barcode(var barcode):
                barcode.data = render(barcode.data, frames: frames, at: barcode.location, in: "<barcode>")
                result.append(.barcode(barcode))
            case .box(var box):
                box.children = bind(box.children, frames: frames)
                result.append(.box(box))
            case .section(let section):
                result += expand(section, frames: frames)
            case .rule, .space, .cut:
                result.append(node)
            }
        }
        return result
    }

    /// A section's children, as many times as its value says, in its place.
    private func expand(_ section: Section, frames: [ContextFrame]) -> [LayoutNode] {
        let value = ContextFrame.resolve(section.name, in: frames)  // missing is false, not an error
        if section.inverted {
            return value?.isTruthy == true ? [] : bind(section.children, frames: frames)
        }
        switch value {
        case .array(let items)?:
            return items.enumerated().flatMap { index, item in
                bind(section.children, frames: frames + [ContextFrame(value: item, item: (index + 1, section.name))])
            }
        case .bool(true)?:
            return bind(section.children, frames: frames)
        case let value? where value.isTruthy:
            // Pushed, as Mustache does, so that {{.}} inside is the value; names not in it fall through.
            return bind(section.children, frames: frames + [ContextFrame(value: value)])
        default:
            return []
        }
    }

    /// One text with its tags filled in; problems are recorded at `location`.
    private func render(_ text: String, frames: [ContextFrame], at location: SourceLocation, in element: String) -> String {
        guard text.contains("{{") else { return text }
        let prepared = self.prepared[text] ?? PreparedTexts.shared.prepared(text)
        self.prepared[text] = prepared
        guard let template = prepared.template else {
            for problem in prepared.problems {
                report("\(problem) (in \(element))", at: location, key: problem)
            }
            return text
        }
        let log = LookupLog()
        let rendered = template.render(ContextRoot(frames: frames, variables: prepared.variables, log: log))
        let place = Self.itemDescription(frames)
        for tag in log.missing.map({ prepared.variables[$0] }) {
            report("the data has no \"\(tag.name)\" (used as \(tag.written) in \(element)\(place)). "
                   + "Add \"\(tag.name)\" to the job's data, or remove it from the template.",
                   at: location, key: "missing \(tag.name)")
        }
        for (tagIndex, value) in log.unprintable {
            let written = tagIndex.map { prepared.variables[$0].written } ?? "{{.}}"
            let name = tagIndex.map { prepared.variables[$0].name } ?? "."
            let advice: String
            switch value {
            case .object(let members):
                let example = members.keys.sorted().first.map { "{{\(name == "." ? "" : name + ".")\($0)}}" } ?? "a value inside it"
                advice = "is an object, which has no single text. Name one of its values, like \(example)"
            default:
                advice = "is a list, which has no single text. Go through it with {{#\(name)}} ... {{/\(name)}}"
            }
            report("\(written) in \(element)\(place) \(advice).", at: location, key: "unprintable \(name)")
        }
        return rendered
    }

    /// `, in item 3 of "items"` for a text inside repeated sections, innermost first.
    private static func itemDescription(_ frames: [ContextFrame]) -> String {
        frames.reversed().compactMap { frame in frame.item.map { "in item \($0.number) of \"\($0.list)\"" } }
            .map { ", " + $0 }.joined()
    }

    /// Records a problem once per place: a row repeated for every item reports its missing name once.
    private func report(_ message: String, at location: SourceLocation, key: String) {
        guard reported.insert("\(location)|\(key)").inserted else { return }
        diagnostics.append(TemplateDiagnostic(message, at: location))
    }
}
