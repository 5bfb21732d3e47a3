/// The most a template file and a job's data may hold, in one place.
///
/// Whoever can write a template or drop a data file must not be able to
/// crash the agent (a stack overflow on deep nesting) or exhaust its memory.
/// Each limit is far above any real template or job: a receipt template nests
/// three or four levels and is a few kilobytes; a long receipt's data is tens
/// of kilobytes. README ("Limits") and docs/TEMPLATES.md list them.
public enum TemplateLimits {
    /// Most bytes in a template file (1 MB). The largest built-in is under 4 KB.
    public static let maximumTemplateBytes = 1_048_576
    /// Deepest nesting of elements and Mustache sections together in a
    /// template, counting `<template>` itself. Checked while the file is read,
    /// before anything recursive runs over the tree.
    public static let maximumNesting = 64
    /// Most bytes in a job's data, a JSON object (4 MB): about 40,000 receipt lines.
    public static let maximumDataBytes = 4 * 1_048_576
    /// Deepest nesting of objects and lists in a job's data.
    public static let maximumDataNesting = 200

    /// `1 MB (1048576 bytes)`: a byte limit as a person reads it, and exactly.
    static func describe(limit bytes: Int) -> String {
        "\(bytes / 1_048_576) MB (\(bytes) bytes)"
    }
}
