import Glibc

/// A folder a kiosk application drops job files into. Each complete file is
/// claimed exactly once, even with several agents watching the same folder,
/// and offered as a ``ClaimedFile``.
///
/// A file counts once it is closed after writing or renamed into the folder;
/// one found by listing the folder, once no process has it open for writing.
/// Names starting with "." or ending in ".tmp", ".part" or "~" are left alone:
/// writers use them while a file is incomplete. Symbolic links, folders,
/// pipes, sockets, devices and files over the size limit are moved, unopened,
/// to `failed/` with a `NAME.error` file explaining why.
///
/// Layout inside the folder (created with mode 0750 when missing):
/// `processing/` (claimed, being printed), `done/` (printed), `failed/`.
/// Every step goes relative to the opened folder and never through a link;
/// a subfolder that is a link, or another user's folder, is refused and
/// nothing is written there (see ``Directory``).
public struct WatchedFolder: Sendable {
    /// Limits for one watched folder.
    public struct Options: Sendable, Hashable {
        /// Larger files are refused unopened. Default 10 MB.
        public var maxFileSize: Int64
        /// How many files `done/` keeps; the longest-finished go first. Default 1000.
        public var doneLimit: Int

        public init(maxFileSize: Int64 = 10 * 1024 * 1024, doneLimit: Int = 1000) {
            self.maxFileSize = maxFileSize
            self.doneLimit = doneLimit
        }
    }

    /// The folder being watched.
    public let path: String
    public let options: Options
    let layout: FolderLayout

    /// Prepares `path` for watching: creates `processing/`, `done/` and
    /// `failed/` when missing. Throws when `path` is not a folder the agent
    /// may write to.
    public init(path: String, options: Options = Options()) throws {
        self.path = path
        self.options = options
        layout = FolderLayout(folder: path, doneLimit: options.doneLimit)
        do { try layout.createSubfolders() } catch let error as TriggerError where (try? Directory.open(path)) == nil {
            throw TriggerError("The watched folder \(path) does not exist or is not a folder (\(error)). "
                + "Create it, or correct the path in the agent's settings.")
        }
    }

    /// The longest name, in bytes, a file is claimed under; a longer one is
    /// moved to `failed/` under a safe name (see ``claimedFiles(report:)``).
    public static let longestName = 240

    /// True for names writers use while a file is incomplete, which are
    /// never taken.
    public static func isIgnored(_ name: String) -> Bool {
        name.hasPrefix(".") || name.hasSuffix(".tmp") || name.hasSuffix(".part") || name.hasSuffix("~")
    }

    /// Starts watching and returns the claimed files, in arrival order.
    ///
    /// Files already in the folder are offered first, and files left in
    /// `processing/` by an agent that stopped without finishing them are
    /// offered again (only by an agent that is alone on the folder, so a
    /// running agent's files are never taken from it), up to
    /// ``Attempts/limit`` times in all; one it had already linked into
    /// `done/` is finished there instead. Watching starts before the folder
    /// is listed, so nothing dropped meanwhile is missed; a file seen both
    /// ways is claimed once, as the claim is a rename. A listed file that a
    /// process still has open for writing is left until its writer closes
    /// it (``OpenForWriting``).
    ///
    /// A name that is not UTF-8 or is longer than ``longestName`` bytes is
    /// moved to `failed/` under a safe name. When the folder itself is
    /// deleted or moved away, it is watched again once it is back.
    ///
    /// Watching stops when the consumer stops iterating (or its task is
    /// cancelled). Throws when the folder cannot be watched. `report` is
    /// told of refusals, trouble, and the folder going and coming back.
    public func claimedFiles(report: @escaping @Sendable (FolderReport) -> Void = { _ in })
        throws -> AsyncStream<ClaimedFile> {
        let first = try InotifyWatcher(folder: path, events: Self.events)
        let (stream, continuation) = AsyncStream<ClaimedFile>.makeStream()
        let claimer = Claimer(layout: layout, sizeLimit: options.maxFileSize, report: report)
        let layout = layout, path = path
        let task = Task {
            let lock = AgentLock(processing: try? layout.open().subfolder(FolderLayout.processingName))
            defer { lock.release() }
            if lock.isAlone {
                for file in claimer.recoverInterrupted() { continuation.yield(file) }
            }
            var watcher = first
            while true {
                let current = watcher
                // IN_DELETE_SELF waits until nothing inside the folder is open (the
                // lock is), so its parent says first that the folder went.
                let sentinel = Task { if await FolderReturn(path: path, layout: layout).gone() { current.stop() } }
                for file in claimer.scanFolder() { continuation.yield(file) }
                for await change in current.changes {
                    for file in Self.claim(change, with: claimer) { continuation.yield(file) }
                }
                sentinel.cancel()
                current.stop()
                if Task.isCancelled { break }
                report(.gone("The watched folder \(path) was deleted or moved away; no file dropped there is printed until "
                    + "it is back. Create it again (with the owner and mode it had, e.g. systemd-tmpfiles --create); "
                    + "the agent watches it again by itself."))
                guard let again = await FolderReturn(path: path, layout: layout, report: report).wait() else { break }
                watcher = again
                report(.watchedAgain("The watched folder \(path) is back and watched again."))
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in
            first.stop()
            task.cancel()
        }
        return stream
    }

    /// What the folder is watched for: files complete, entries made, and
    /// the folder itself going (IN_IGNORED always comes).
    static let events = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_DELETE_SELF | IN_MOVE_SELF)

    /// What one change in the folder gives.
    private static func claim(_ change: FolderChange, with claimer: Claimer) -> [ClaimedFile] {
        switch change {
        case .arrived(let name):
            return claimer.claim(EntryName(name)).map { [$0] } ?? []
        case .created(let name):
            // Only what is complete on creation; a regular file waits for its close.
            if let folder = try? claimer.layout.open(), folder.kind(of: EntryName(name)).isRegular { return [] }
            return claimer.claim(EntryName(name)).map { [$0] } ?? []
        case .lost:
            return claimer.scanFolder()
        }
    }
}
