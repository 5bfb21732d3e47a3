/// What a job prints.
public enum JobContent: Hashable, Codable, Sendable {
    /// A template (built-in or the integrator's, by name) bound to the job's
    /// data, a JSON object as text. Rendered for the printer when the job is sent.
    case template(name: String, dataJSON: String)
    /// A printer-ready file (PDF, PNG, JPEG...) that the caller has already
    /// copied into the spool folder, so it cannot change or vanish before the
    /// job is sent. `format` is its MIME type, e.g. `application/pdf`.
    case document(path: String, format: String)
    /// What this version cannot read (a set-aside row): the stored kind, kept as it is.
    case unreadable(kind: String)
}

/// The printer a job was sent to (or is being sent to). A copy of the saved
/// printer's identity, not a reference: the job's history stays readable after
/// the printer is removed from its role.
public struct JobPrinter: Hashable, Codable, Sendable {
    /// The saved printer's id (`SavedPrinter.id`) when the job was sent.
    public var id: Int64
    public var name: String
    public var uri: String

    public init(id: Int64, name: String, uri: String) {
        self.id = id; self.name = name; self.uri = uri
    }

    public init(_ printer: SavedPrinter) {
        self.init(id: printer.id, name: printer.name, uri: printer.uri)
    }
}
