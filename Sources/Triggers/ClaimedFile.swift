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
    /// Its name inside `processing/`.
    let name: String

    init(name: String, originalName: String, layout: FolderLayout, wasInterrupted: Bool = false) {
        path = FileSystem.join(layout.processing, name)
        self.name = name
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
        let folder = try layout.open()
        let processing = try folder.subfolder(FolderLayout.processingName)
        let done = try folder.subfolder(FolderLayout.doneName)
        guard let kept = try processing.move(EntryName(name), into: done, as: originalName,
                                             linked: CrashPoint.finishLinked.reached) else { throw vanished() }
        Attempts.forget(name, in: processing)
        layout.recordFinished(EntryName(kept), in: done)
        return FileSystem.join(done.path, kept)
    }

    /// Moves the file to `failed/` and writes `NAME.error` beside it with
    /// `reason`, for whoever looks after the kiosk. Returns where it went.
    @discardableResult
    public func fail(reason: String) throws -> String {
        let processing = try layout.open().subfolder(FolderLayout.processingName)
        guard let kept = try layout.moveToFailed(EntryName(name), from: processing, as: originalName,
                                                 explanation: reason, forgetAttempts: true) else { throw vanished() }
        return kept
    }

    private func vanished() -> TriggerError {
        TriggerError("\(path) is no longer there: something other than this agent moved or removed it. "
            + "Look for \(originalName) in \(layout.folder) and its subfolders.")
    }
}
