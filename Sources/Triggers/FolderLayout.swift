/// The folder and its three subfolders, plus the limits that apply to it.
/// Paths are kept for messages and for ``ClaimedFile/path``; every change
/// goes through ``Directory``, relative to the opened folder.
struct FolderLayout: Sendable, Hashable {
    let folder: String
    /// `done/`'s oldest files, shared by every claim of this folder.
    let doneIndex: DoneIndex
    /// How many files `done/` keeps.
    var doneLimit: Int { doneIndex.limit }

    init(folder: String, doneLimit: Int) {
        self.folder = folder
        doneIndex = DoneIndex(limit: doneLimit)
    }

    static func == (a: FolderLayout, b: FolderLayout) -> Bool { a.folder == b.folder && a.doneLimit == b.doneLimit }
    func hash(into hasher: inout Hasher) { hasher.combine(folder); hasher.combine(doneLimit) }

    static let processingName = "processing"
    static let doneName = "done"
    static let failedName = "failed"
    /// The subfolders' own names, which the scan of the folder skips.
    static let subfolderNames: Set<String> = [processingName, doneName, failedName]

    var processing: String { FileSystem.join(folder, Self.processingName) }
    var done: String { FileSystem.join(folder, Self.doneName) }
    var failed: String { FileSystem.join(folder, Self.failedName) }

    /// The watched folder itself, opened.
    func open() throws -> Directory { try Directory.open(folder) }

    /// Creates the subfolders that are missing, and refuses any that is not
    /// a real folder of the agent's own.
    func createSubfolders() throws {
        let opened = try open()
        for name in [Self.processingName, Self.doneName, Self.failedName] { _ = try opened.subfolder(name) }
    }

    /// Moves `name` from `source` into `failed/` as `newName` and writes the
    /// explanation beside it as `NEWNAME.error`. Returns where it went; nil
    /// when it was gone (another agent took it). `forgetAttempts` when
    /// `source` is `processing/`: the count is dropped, so a file moved back
    /// into the folder starts again from its first attempt.
    @discardableResult
    func moveToFailed(_ name: EntryName, from source: Directory, as newName: String, explanation: String,
                      forgetAttempts: Bool = false) throws -> String? {
        let failed = try open().subfolder(Self.failedName)
        guard let kept = try source.move(name, into: failed, as: newName) else { return nil }
        if forgetAttempts, let text = name.text { Attempts.forget(text, in: source) }
        let text = explanation.hasSuffix("\n") ? explanation : explanation + "\n"
        try failed.write(text, to: kept + ".error")
        return FileSystem.join(failed.path, kept)
    }

    /// Stamps `added`, just moved into `done/`, with the finish time (a
    /// move keeps the writer's mtime), then deletes the oldest files beyond
    /// `doneLimit`, `added` being the newest (``DoneIndex``): the
    /// longest-finished go first.
    func recordFinished(_ added: EntryName, in done: Directory) {
        done.touch(added)
        doneIndex.finished(added, in: done)
    }
}
