/// Where something stands in a template file: what every template error names,
/// so an integrator can go straight to it in an editor.
public struct SourceLocation: Hashable, Sendable, CustomStringConvertible {
    /// The template file, as the person gave it (or a built-in template's name).
    public var file: String
    /// 1-based line.
    public var line: Int
    /// 1-based column.
    public var column: Int

    public init(file: String, line: Int, column: Int) {
        self.file = file; self.line = line; self.column = column
    }

    /// `receipt.xml:12:5`, the form compilers use, which editors turn into links.
    public var description: String { "\(file):\(line):\(column)" }
}

/// One thing wrong with a template, at its place.
public struct TemplateDiagnostic: Error, Hashable, Sendable, CustomStringConvertible {
    public var location: SourceLocation
    public var message: String

    public init(_ message: String, at location: SourceLocation) {
        self.location = location; self.message = message
    }

    public var description: String { "\(location): \(message)" }
}

/// Everything wrong with a template. A check reports all of it at once, so an
/// integrator fixes a file in one pass instead of one error per run.
public struct TemplateErrors: Error, Sendable, CustomStringConvertible {
    public var diagnostics: [TemplateDiagnostic]

    public init(_ diagnostics: [TemplateDiagnostic]) { self.diagnostics = diagnostics }

    public var description: String { diagnostics.map(\.description).joined(separator: "\n") }
}
