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

    /// The parsed template; errors carry this source's `file`.
    public func parse() throws(TemplateErrors) -> LayoutDocument {
        try TemplateParser.parse(text, file: file)
    }
}
