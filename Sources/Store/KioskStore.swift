public import Foundation
public import GRDB

/// KioskPrint's database: printers, the roles they hold, and (later) jobs and
/// counters, in one SQLite file in WAL mode so the command line and a running
/// agent use it at the same time.
///
/// ```swift
/// let store = try KioskStore(path: DatabaseLocation.resolve())
/// let saved = try await store.assign(printer: candidate, to: Role("receipt"), as: .primary)
/// ```
public final class KioskStore: Sendable {
    /// The path of the database file.
    public let path: String
    let pool: DatabasePool

    /// Opens the database at `path`, creating it (mode 0600) and its folder
    /// (mode 0700) if needed, and brings its schema up to date.
    public init(path: String) throws(StoreError) {
        self.path = path
        do {
            try Self.prepareFile(at: path)
            var configuration = Configuration()
            // The agent and an administrator's command may write at the same
            // moment; one waits for the other instead of failing.
            configuration.busyMode = .timeout(10)
            configuration.prepareDatabase { db in
                try db.execute(sql: "PRAGMA foreign_keys = ON")
            }
            pool = try DatabasePool(path: path, configuration: configuration)
            try Self.migrator.migrate(pool)
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError.cannotOpen(path: path, reason: "\(error)")
        }
    }

    /// Runs `body` inside an open write transaction (committed when it returns).
    /// For tests that need another process to meet a writer mid-transaction.
    package func withWriteTransaction<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await pool.write { db in
            try db.execute(sql: "UPDATE printer SET contactedAt = contactedAt")  // take the write lock now
            return try body()
        }
    }

    /// Creates the file with owner-only permissions before SQLite does, so it
    /// never exists with a wider mode. When root creates it inside a folder
    /// that another user owns (the service's StateDirectory), the file goes to
    /// that user, so the service can open what the administrator made.
    static func prepareFile(at path: String) throws(StoreError) {
        let folder = (path as NSString).deletingLastPathComponent
        if !folder.isEmpty, !FileManager.default.fileExists(atPath: folder) {
            do {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true,
                                                        attributes: [.posixPermissions: 0o700])
            } catch {
                throw StoreError.cannotOpen(path: path, reason: "cannot create the folder \(folder): \(error.localizedDescription)")
            }
        }
        guard !FileManager.default.fileExists(atPath: path) else { return }
        let fd = open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
        if fd < 0 {
            if errno == EEXIST { return }  // another process made it first: fine
            throw StoreError.cannotOpen(path: path, reason: String(cString: strerror(errno)))
        }
        var info = stat()
        if geteuid() == 0, !folder.isEmpty, stat(folder, &info) == 0, info.st_uid != 0 {
            _ = fchown(fd, info.st_uid, info.st_gid)
        }
        close(fd)
    }
}

/// Why the database could not be used. Each message names the file and says what to do.
public enum StoreError: Error, CustomStringConvertible, Equatable {
    case cannotOpen(path: String, reason: String)
    case printerNotFound(String)
    case alreadyInRole(printer: String, role: String, rank: String)
    case corrupt(what: String, reason: String)

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
        }
    }
}
