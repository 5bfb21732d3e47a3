import Foundation
import GRDB
public import PrintModel

/// KioskPrint's database: printers, the roles they hold, the job queue, and
/// (later) counters, in one SQLite file in WAL mode so the command line and a running
/// agent use it at the same time.
///
/// ```swift
/// let store = try KioskStore(path: DatabaseLocation.resolve())
/// let saved = try await store.assign(printer: candidate, to: Role("receipt"), as: .primary)
/// ```
public final class KioskStore: Sendable {
    /// How long a process keeps the database open, which decides how it opens it.
    public enum Use: Sendable {
        /// The agent: open for days, reading beside its writes (GRDB's
        /// DatabasePool: a writer connection and reader connections).
        case agent
        /// One command: a single connection for a handful of statements.
        /// A pool's open costs a command about as much as its work: its
        /// readers are connections of their own, and it writes a table into
        /// the WAL when it finds none (the last command's close checkpoint
        /// deletes it), a write transaction and two fsyncs per command.
        case command
    }

    /// The path of the database file.
    public let path: String
    /// A DatabasePool for the agent, a DatabaseQueue for a command (``Use``).
    let database: any DatabaseWriter

    /// Opens the database at `path`, creating it (mode 0600) and its folder
    /// (mode 0700) if needed, and brings its schema up to date. A write waits
    /// up to `busyTimeout` for another process's lock before it fails.
    public convenience init(path: String, busyTimeout: Duration = .seconds(10), use: Use = .agent) throws(StoreError) {
        try self.init(path: path, busyTimeout: busyTimeout, use: use, convertAtOpenUpTo: Self.convertAtOpenLimit)
    }

    /// - Parameter convertAtOpenUpTo: the largest file converted to
    ///   incremental auto_vacuum at open (see ``useIncrementalVacuum(_:upTo:)``).
    init(path: String, busyTimeout: Duration = .seconds(10), use: Use = .agent,
         convertAtOpenUpTo limit: Int64) throws(StoreError) {
        self.path = path
        do {
            try Self.prepareFile(at: path)
            var configuration = Configuration()
            // The agent and an administrator's command may write at the same
            // moment; one waits for the other instead of failing.
            configuration.busyMode = .timeout(Double(busyTimeout.components.seconds)
                + Double(busyTimeout.components.attoseconds) / 1e18)
            configuration.prepareDatabase { db in
                try db.execute(sql: "PRAGMA foreign_keys = ON")
            }
            switch use {
            case .agent:
                database = try DatabasePool(path: path, configuration: configuration)
            case .command:
                // WAL is the file's own mode once set: a queue's connection
                // uses it as it finds it. Only a new file (or one from before
                // WAL) is switched, paying the pool's set-up once.
                if !Self.isInWALMode(path) { configuration.journalMode = .wal }
                database = try DatabaseQueue(path: path, configuration: configuration)
            }
            // An accepted job must survive a power cut. In WAL mode with
            // synchronous = NORMAL a commit is not flushed to disk until the
            // next checkpoint, so the last commits can vanish on power loss;
            // FULL syncs the WAL at every commit (one fsync per job change:
            // cheap at a kiosk's rate). GRDB sets NORMAL on the writer when it
            // turns WAL on, after prepareDatabase has run, so this is set here,
            // on the writer connection, which makes every commit of this store.
            try database.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA synchronous = FULL")
            }
            try Self.useIncrementalVacuum(database, upTo: limit)
            try Self.migrator.migrate(database)
        } catch let error as StoreError {
            throw error
        } catch {
            if let trouble = StorageTrouble(error) { throw StoreError.storage(trouble, path: path) }
            throw StoreError.cannotOpen(path: path, reason: "\(error)")
        }
    }

    /// Gives back what SQLite holds beyond the open file: each connection's
    /// page and statement caches, and the reader connections themselves
    /// (opened again when next needed). Waits for accesses under way to end.
    /// The agent calls it when a role's queue runs dry after work: a burst
    /// leaves megabytes of cached pages across the pool's connections.
    ///
    /// GRDB's release blocks until every reader is idle, so it runs on a
    /// thread of its own: blocking Swift's cooperative threads instead froze
    /// the agent when two roles went idle together on a 2-core machine (both
    /// threads waited for a read whose continuation needed one of them).
    public func releaseMemory() async {
        let database = database
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let thread = Thread {
                switch database {
                case let pool as DatabasePool: pool.releaseMemory()
                case let queue as DatabaseQueue: queue.releaseMemory()
                default: break
                }
                continuation.resume()
            }
            thread.name = "kioskprint-store-release"
            thread.start()
        }
    }

    /// Purges (KioskStore+Retention.swift) leave free pages that SQLite only
    /// reuses; with auto_vacuum = INCREMENTAL they can be given back to the
    /// disk (`reclaimFreePages`) after each purge, so the file stays the size
    /// of what it holds. The mode is fixed once the first table exists, and
    /// GRDB turns WAL on (which writes the first page) before any migration
    /// runs, so a migration cannot set it: a file still in NONE (a new one,
    /// or one from before retention) is converted with VACUUM. Here, at open,
    /// only up to `limit` bytes (instant on a new file): a database that grew
    /// for years would take minutes to rewrite, longer than systemd waits for
    /// the agent to start; it is converted by its first purge instead, once it
    /// holds only what it keeps. A VACUUM that fails (the disk is full,
    /// another process holds the file) leaves the mode as it was, to be tried
    /// again: the database works either way, it only keeps its free pages.
    static func useIncrementalVacuum(_ database: any DatabaseWriter, upTo limit: Int64) throws {
        try database.writeWithoutTransaction { db in
            guard try !usesIncrementalVacuum(db) else { return }
            let pages = try Int64.fetchOne(db, sql: "PRAGMA page_count") ?? 0
            let pageSize = try Int64.fetchOne(db, sql: "PRAGMA page_size") ?? 4096
            guard pages * pageSize <= limit else { return }
            try convertToIncrementalVacuum(db)
        }
    }

    /// Whether the file's header says WAL: bytes 18 and 19 of an SQLite
    /// file, its write and read format versions, are 2 in WAL mode (1 for a
    /// rollback journal). False for a new, empty or unreadable file.
    static func isInWALMode(_ path: String) -> Bool {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var versions: (UInt8, UInt8) = (0, 0)
        let read = withUnsafeMutableBytes(of: &versions) { pread(fd, $0.baseAddress, 2, 18) }
        return read == 2 && versions == (2, 2)
    }

    /// The largest file converted at open: 64 MB, a few seconds' VACUUM on an SD card.
    static let convertAtOpenLimit: Int64 = 64 * 1_048_576

    static func usesIncrementalVacuum(_ db: Database) throws -> Bool {
        try Int.fetchOne(db, sql: "PRAGMA auto_vacuum") == 2  // 2 = INCREMENTAL
    }

    /// Sets the mode and rewrites the file (outside a transaction); a failure is not an error.
    static func convertToIncrementalVacuum(_ db: Database) throws {
        try db.execute(sql: "PRAGMA auto_vacuum = INCREMENTAL")
        try? db.execute(sql: "VACUUM")
    }

    /// Creates the file with owner-only permissions before SQLite does, so it
    /// never exists with a wider mode. When root creates it inside a folder
    /// that another user owns (the service's StateDirectory), the file goes to
    /// that user, so the service can open what the administrator made.
    static func prepareFile(at path: String) throws(StoreError) {
        let folder = (path as NSString).deletingLastPathComponent
        if !folder.isEmpty {
            do { try prepareFolder(at: folder) } catch {
                throw StoreError.cannotOpen(path: path, reason: "cannot create the folder \(folder): \(error.localizedDescription)")
            }
        }
        guard !FileManager.default.fileExists(atPath: path) else { return }
        let error = createOwnedFile(at: path)
        // EEXIST: another process made it first, which is fine.
        guard error == 0 || error == EEXIST else { throw StoreError.cannotOpen(path: path, reason: String(cString: strerror(error))) }
    }

    /// Creates the empty file `path` (mode 0600; when root creates it in a
    /// folder another user owns, it goes to that user, so the service can
    /// still use it). Returns 0, or the errno: EEXIST when it already exists.
    static func createOwnedFile(at path: String) -> Int32 {
        let fd = open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return errno }
        if let owner = folderOwner(of: path) { _ = fchown(fd, owner.uid, owner.gid) }
        close(fd)
        return 0
    }

    /// Creates the folder `path` with `mode` when missing, as ``prepareFile``
    /// creates the database: when root creates it inside a folder another
    /// user owns (the spool folder beside the service's database, made by
    /// `sudo kioskprint print --file`), it goes to that user, so the service
    /// can still write there.
    public static func prepareFolder(at path: String, mode: Int = 0o700) throws {
        var info = stat()
        if stat(path, &info) == 0 { return }
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: mode])
        if let owner = folderOwner(of: path) { _ = lchown(path, owner.uid, owner.gid) }
    }

    /// The owner of the folder holding `path`, when this process is root and
    /// that folder belongs to another user: who a new entry goes to.
    private static func folderOwner(of path: String) -> (uid: uid_t, gid: gid_t)? {
        let folder = (path as NSString).deletingLastPathComponent
        var info = stat()
        guard geteuid() == 0, !folder.isEmpty, stat(folder, &info) == 0, info.st_uid != 0 else { return nil }
        return (info.st_uid, info.st_gid)
    }
}

/// Why the database could not be used. Each message names the file and says what to do.
public enum StoreError: Error, CustomStringConvertible, Equatable {
    case cannotOpen(path: String, reason: String)
    case printerNotFound(String)
    case alreadyInRole(printer: String, role: String, rank: String)
    case corrupt(what: String, reason: String)
    case corruptJob(JobID, reason: String)
    case jobNotFound(JobID)
    /// A state change by a spooler that no longer holds the job's claim.
    case notClaimOwner(job: JobID, owner: String, holder: String?)
    /// A change to a job that has already ended.
    case jobFinished(JobID, JobState)
    /// An operator's retry of a job that did not fail.
    case notRetryable(JobID, JobState)
    /// A job or job change that does not make sense, said in words.
    case invalidJob(String)
    /// The file is damaged, read-only, locked or its disk full.
    case storage(StorageTrouble, path: String)

    public var description: String {
        switch self {
        case .cannotOpen(let path, let reason):
            "Cannot open the KioskPrint database at \(path): \(reason). "
                + "Check that the folder exists and is writable by this user, or choose another file with --database PATH."
        case .printerNotFound(let name):
            "No saved printer matches '\(name)'. See the saved printers with: kioskprint printers list"
        case .alreadyInRole(let printer, let role, let rank):
            "\(printer) is already the \(rank) printer for the role '\(role)'. "
                + "To change its place, remove it (kioskprint printers remove '\(printer)' --role \(role)) and add it again."
        case .corrupt(let what, let reason):
            "The database holds \(what) that cannot be read (\(reason)). Remove it with kioskprint printers remove and add it again."
        case .corruptJob(let id, let reason):
            "Job \(id) in the database cannot be read (\(reason)): a newer KioskPrint may have written it. "
                + "Run the KioskPrint version that wrote it, or cancel the job and enqueue it again."
        case .jobNotFound(let id):
            "There is no job \(id) in this database. Check the number against the job list (finished jobs included)."
        case .notClaimOwner(let job, let owner, let holder):
            "Job \(job) is no longer held by \(owner)"
                + (holder.map { " (\($0) holds it now)" } ?? " (its claim was released)")
                + ": leave it to its holder. Renew the claim more often than its lease if this repeats."
        case .jobFinished(let id, let state):
            "Job \(id) has already ended (\(state)); nothing more happens to it. Retry it (if it did not complete) or print it again as a new job."
        case .notRetryable(let id, let state):
            "Job \(id) is \(state); only a failed, aborted, canceled or held job can be retried."
                + (state == .completed ? " To print it again, enqueue it again as a new job." : " It is still on its way: cancel it first to stop it.")
        case .invalidJob(let detail):
            detail
        case .storage(let trouble, let path):
            trouble.describe(database: path)
        }
    }
}
