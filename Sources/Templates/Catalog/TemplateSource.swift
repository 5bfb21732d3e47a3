import Synchronization

/// One template, found by name: its markup, where it came from, its images
/// and the sample data that shows what it expects.
public struct TemplateSource: Hashable, Sendable {
    /// Where a template was found.
    public enum Origin: Hashable, Sendable, CustomStringConvertible {
        /// Compiled into kioskprint.
        case builtIn
        /// A file in a templates folder (or named on the command line).
        case file(path: String)
        /// A file that replaces the built-in of the same name.
        case overriding(path: String)

        public var description: String {
            switch self {
            case .builtIn: "built-in"
            case .file(let path): path
            case .overriding(let path): "\(path) (overrides the built-in)"
            }
        }
    }

    /// The name jobs use: the file name without `.xml`.
    public var name: String
    public var origin: Origin
    /// The markup.
    public var text: String
    /// What diagnostics call the file: its path, or `built-in/NAME.xml`.
    public var file: String
    public var assets: TemplateAssets
    /// Example data (JSON): a built-in's, or `NAME.sample.json` beside a file.
    public var sampleData: String?
    /// One line for `templates list`.
    public var summary: String

    public init(name: String, origin: Origin, text: String, file: String, assets: TemplateAssets = .none,
                sampleData: String? = nil, summary: String = "") {
        self.name = name; self.origin = origin; self.text = text; self.file = file
        self.assets = assets; self.sampleData = sampleData; self.summary = summary
    }

    /// The parsed template; errors carry this source's `file`. A template
    /// parsed before (same file, same text) comes from a small cache: an
    /// agent prints the same few templates all day.
    public func parse() throws(TemplateErrors) -> LayoutDocument {
        try ParsedTemplates.shared.document(for: text, file: file)
    }
}

/// Templates already parsed, by file and text; bounded, since custom
/// template folders can hold many.
final class ParsedTemplates: Sendable {
    static let shared = ParsedTemplates()
    static let capacity = 64
    private let cache = Mutex<[Key: LayoutDocument]>([:])

    struct Key: Hashable { var file: String; var text: String }

    func document(for text: String, file: String) throws(TemplateErrors) -> LayoutDocument {
        let key = Key(file: file, text: text)
        if let known = cache.withLock({ $0[key] }) { return known }
        let document = try TemplateParser.parse(text, file: file)
        cache.withLock { cache in
            if cache.count >= Self.capacity { cache.removeAll() }
            cache[key] = document
        }
        return document
    }
}
