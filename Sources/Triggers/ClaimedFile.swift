public import Foundation
import Glibc

/// A job file this agent has taken from a watched folder: it now sits in
/// the folder's `processing/` subfolder, where no other agent will take it.
///
/// Call ``finish()`` once printed, or ``fail(reason:)`` when it cannot be;
/// neither ever deletes the input. A file left in `processing/` (the agent
/// crashed) is offered again at the next start.
public struct ClaimedFile: Sendable, Hashable {
    /// Where the file is now, inside `processing/`. Open it from here.
    public let path: String
    /// The name it was dropped under.
    public let originalName: String

    /// True for a file an agent that stopped without finishing it left in
    /// `processing/`: it may have been queued just before the stop.
    public let wasInterrupted: Bool

    let layout: FolderLayout

    init(path: String, originalName: String, layout: FolderLayout, wasInterrupted: Bool = false) {
        self.path = path
        self.originalName = originalName
        self.layout = layout
        self.wasInterrupted = wasInterrupted
    }

    /// When the file was claimed: the moment it was renamed into
    /// `processing/` (its change time), so a job queued from this claim is
    /// one created since. Nil when the file cannot be read.
    public var claimedAt: Date? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Date(timeIntervalSince1970: Double(info.st_ctim.tv_sec) + Double(info.st_ctim.tv_nsec) / 1e9)
    }

    /// Moves the file to `done/`, then trims `done/` to the newest
    /// ``WatchedFolder/Options/doneLimit`` files. Returns where it went.
    @discardableResult
    public func finish() throws -> String {
        let target = try FileSystem.moveWithoutReplacing(path, into: layout.done, name: originalName)
        // rename keeps the writer's mtime; stamp the finish time so trimming
        // removes the longest-finished files first.
        FileSystem.touch(target)
        layout.trimDone()
        return target
    }

    /// Moves the file to `failed/` and writes `NAME.error` beside it with
    /// `reason`, for whoever looks after the kiosk. Returns where it went.
    @discardableResult
    public func fail(reason: String) throws -> String {
        try layout.moveToFailed(path, name: originalName, explanation: reason)
    }
}

/// The folder and its three subfolders, plus the limits that apply to it.
struct FolderLayout: Sendable, Hashable {
    let folder: String
    let processing: String
    let done: String
    let failed: String
    let doneLimit: Int

    init(folder: String, doneLimit: Int) {
        self.folder = folder
        processing = FileSystem.join(folder, "processing")
        done = FileSystem.join(folder, "done")
        failed = FileSystem.join(folder, "failed")
        self.doneLimit = doneLimit
    }

    /// The subfolders' own names, which the scan of the folder skips.
    static let subfolderNames: Set<String> = ["processing", "done", "failed"]

    func createSubfolders() throws {
        for directory in [processing, done, failed] { try FileSystem.makeDirectory(directory) }
    }

    /// Moves `path` into `failed/` and writes the explanation beside it.
    @discardableResult
    func moveToFailed(_ path: String, name: String, explanation: String) throws -> String {
        let target = try FileSystem.moveWithoutReplacing(path, into: failed, name: name)
        let text = explanation.hasSuffix("\n") ? explanation : explanation + "\n"
        try FileSystem.write(text, to: target + ".error")
        return target
    }

    /// Deletes the oldest files in `done/` beyond `doneLimit`. Another agent
    /// may trim at the same time, so an entry already gone is fine.
    func trimDone() {
        guard let names = try? FileSystem.list(done), names.count > doneLimit else { return }
        let dated = names.compactMap { name -> (name: String, time: Int64)? in
            let path = FileSystem.join(done, name)
            return FileSystem.modified(path).map { (name, $0) }
        }
        let oldestFirst = dated.sorted { ($0.time, $0.name) < ($1.time, $1.name) }
        for entry in oldestFirst.prefix(max(0, oldestFirst.count - doneLimit)) {
            let path = FileSystem.join(done, entry.name)
            if FileSystem.kind(of: path) == .directory { continue }
            _ = unlink(path)
        }
    }
}
