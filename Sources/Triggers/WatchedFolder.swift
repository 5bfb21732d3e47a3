import Glibc
import Synchronization

/// A folder a kiosk application drops job files into. Each complete file is
/// claimed exactly once, even with several agents watching the same folder,
/// and offered as a ``ClaimedFile``.
///
/// A file counts once it is closed after writing or renamed into the folder.
/// Names starting with "." or ending in ".tmp", ".part" or "~" are left alone:
/// writers use them while a file is incomplete. Symbolic links, folders,
/// pipes, sockets, devices and files over the size limit are moved, unopened,
/// to `failed/` with a `NAME.error` file explaining why.
///
/// Layout inside the folder (created with mode 0750 when missing):
/// `processing/` (claimed, being printed), `done/` (printed), `failed/`.
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
        guard FileSystem.kind(of: path) == .directory else {
            throw TriggerError("The watched folder \(path) does not exist or is not a folder. "
                + "Create it, or correct the path in the agent's settings.")
        }
        self.path = path
        self.options = options
        layout = FolderLayout(folder: path, doneLimit: options.doneLimit)
        try layout.createSubfolders()
    }

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
    /// running agent's files are never taken from it). Watching starts
    /// before the folder is listed, so nothing dropped meanwhile is missed;
    /// a file seen both ways is claimed once, as the claim is a rename.
    ///
    /// Watching stops when the consumer stops iterating (or its task is
    /// cancelled). Throws when the folder cannot be watched.
    /// `refused` is told of each entry refused before it was opened (a
    /// link, a pipe, a folder, a file over the size limit): the name and the
    /// explanation written beside it in `failed/`, for the log.
    public func claimedFiles(refused: @escaping @Sendable (String, String) -> Void = { _, _ in })
        throws -> AsyncStream<ClaimedFile> {
        let watcher = try InotifyWatcher(folder: path, events: UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE))
        let (stream, continuation) = AsyncStream<ClaimedFile>.makeStream()
        let claimer = Claimer(layout: layout, sizeLimit: options.maxFileSize, refused: refused)
        let task = Task {
            let lock = AgentLock(directory: layout.processing)
            defer { lock.release() }
            if lock.isAlone {
                for file in claimer.recoverInterrupted() { continuation.yield(file) }
            }
            for file in claimer.scanFolder() { continuation.yield(file) }
            for await change in watcher.changes {
                switch change {
                case .arrived(let name):
                    if let file = claimer.claim(name) { continuation.yield(file) }
                case .created(let name):
                    // Only what is complete on creation; a regular file waits for its close.
                    if FileSystem.kind(of: FileSystem.join(path, name)).isRegular { continue }
                    if let file = claimer.claim(name) { continuation.yield(file) }
                case .lost:
                    for file in claimer.scanFolder() { continuation.yield(file) }
                }
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in
            watcher.stop()
            task.cancel()
        }
        return stream
    }
}

/// Takes files from the folder into `processing/`, refusing what must not
/// be opened.
struct Claimer: Sendable {
    let layout: FolderLayout
    let sizeLimit: Int64
    /// Told of each refusal: the name and its explanation.
    var refused: @Sendable (String, String) -> Void = { _, _ in }

    /// Claim names are unique per process and claim, so two agents' claims
    /// never land on the same name.
    private static let counter = Atomic<Int>(0)
    private static let claimPrefix = ".claim."

    /// Claims `name` from the folder, or returns nil when it is ignored,
    /// already taken by someone else, or refused (then it is in `failed/`).
    func claim(_ name: String) -> ClaimedFile? {
        guard !WatchedFolder.isIgnored(name), !FolderLayout.subfolderNames.contains(name),
              !name.contains("/") else { return nil }
        let source = FileSystem.join(layout.folder, name)
        let number = Self.counter.add(1, ordering: .relaxed).newValue
        // Step 1, the claim itself: an atomic rename to a name only this
        // claim uses. ENOENT means another agent (or an earlier event) won.
        let claimPath = FileSystem.join(layout.processing, "\(Self.claimPrefix)\(getpid()).\(number).\(name)")
        do {
            guard try FileSystem.claim(source, to: claimPath) else { return nil }
        } catch {
            return nil  // not ours to touch (e.g. no permission): left in place, tried again at the next scan
        }
        return settle(claimPath, name: name)
    }

    /// Step 2: gives the claimed entry its own name in `processing/`, or
    /// refuses it into `failed/`.
    private func settle(_ claimPath: String, name: String) -> ClaimedFile? {
        if let refusal = Refusal(kind: FileSystem.kind(of: claimPath), sizeLimit: sizeLimit) {
            let explanation = refusal.explanation(for: name)
            _ = try? layout.moveToFailed(claimPath, name: name, explanation: explanation)
            refused(name, explanation)
            return nil
        }
        guard let path = try? FileSystem.moveWithoutReplacing(claimPath, into: layout.processing, name: name) else {
            return nil
        }
        return ClaimedFile(path: path, originalName: name, layout: layout)
    }

    /// Everything now in the folder, claimed in name order.
    func scanFolder() -> [ClaimedFile] {
        guard let names = try? FileSystem.list(layout.folder) else { return [] }
        return names.compactMap { claim($0) }
    }

    /// Files a stopped agent left in `processing/`, including claims it
    /// made but had not yet renamed.
    func recoverInterrupted() -> [ClaimedFile] {
        guard let names = try? FileSystem.list(layout.processing) else { return [] }
        return names.compactMap { name in
            let path = FileSystem.join(layout.processing, name)
            if name.hasPrefix(Self.claimPrefix) {
                // ".claim.PID.N.NAME": the original name follows the third dot.
                let parts = name.dropFirst(Self.claimPrefix.count).split(separator: ".", maxSplits: 2)
                guard parts.count == 3 else { return nil }
                return settle(path, name: String(parts[2]))
            }
            guard !name.hasPrefix(".") else { return nil }
            if let refusal = Refusal(kind: FileSystem.kind(of: path), sizeLimit: sizeLimit) {
                let explanation = refusal.explanation(for: name)
                _ = try? layout.moveToFailed(path, name: name, explanation: explanation)
                refused(name, explanation)
                return nil
            }
            return ClaimedFile(path: path, originalName: name, layout: layout, wasInterrupted: true)
        }
    }
}

/// An exclusive `flock` on `processing/.agent.lock`, held while an agent
/// watches. Only an agent that gets it takes up files left in
/// `processing/`: otherwise another agent is running and they may be its.
final class AgentLock: Sendable {
    private let fd: Int32
    /// True when no other agent holds the lock.
    let isAlone: Bool

    init(directory: String) {
        fd = open(FileSystem.join(directory, ".agent.lock"), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o640)
        isAlone = fd >= 0 && flock(fd, LOCK_EX | LOCK_NB) == 0
    }

    func release() {
        if fd >= 0 { close(fd) }
    }
}
