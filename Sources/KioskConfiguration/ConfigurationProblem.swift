/// One thing wrong with a configuration file: the key it concerns (e.g.
/// `folder[2].role`, counting from 1 as people do), or for a syntax error the
/// line and column, and what to do about it.
public struct ConfigurationProblem: Error, Sendable, Hashable, CustomStringConvertible {
    /// The key's path, empty for the file as a whole.
    public var key: String
    public var line: Int?
    public var column: Int?
    public var message: String

    public init(key: String = "", line: Int? = nil, column: Int? = nil, message: String) {
        self.key = key
        self.line = line
        self.column = column
        self.message = message
    }

    public var description: String {
        if let line { return "\(line):\(column ?? 1): \(message)" }
        return key.isEmpty ? message : "\(key): \(message)"
    }
}

/// A configuration file refused, with every problem found in it.
public struct ConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file, as given.
    public var path: String
    public var problems: [ConfigurationProblem]

    public init(path: String, problems: [ConfigurationProblem]) {
        self.path = path
        self.problems = problems
    }

    /// One line per problem, each starting with the file's name, so a log
    /// line or a terminal shows where to look.
    public var description: String {
        problems.map { "\(path): \($0)" }.joined(separator: "\n")
    }
}
