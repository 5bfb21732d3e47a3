import Foundation
import GRDB

/// What went wrong with the database's storage, said for the person who
/// must fix it: the disk is full, another process holds a lock, the file is
/// damaged or read-only. GRDB's own text ("SQLite error 13: database or disk
/// is full - while executing `UPDATE job ...`") names neither the file nor
/// what to do.
public enum StorageTrouble: Sendable, Equatable {
    case diskFull, locked, damaged, readOnly, ioError

    /// The trouble `error` stands for, or nil when it is not a storage error
    /// (a rule of the queue, a job that ended meanwhile).
    public init?(_ error: any Error) {
        guard let error = error as? DatabaseError else { return nil }
        switch error.resultCode {
        case .SQLITE_FULL: self = .diskFull
        case .SQLITE_BUSY, .SQLITE_LOCKED: self = .locked
        case .SQLITE_CORRUPT, .SQLITE_NOTADB: self = .damaged
        case .SQLITE_READONLY, .SQLITE_PERM, .SQLITE_CANTOPEN: self = .readOnly
        case .SQLITE_IOERR: self = .ioError
        default: return nil
        }
    }

    /// One sentence: what happened to the database at `path`, and what to do.
    public func describe(database path: String) -> String {
        let folder = (path as NSString).deletingLastPathComponent
        return switch self {
        case .diskFull:
            "The disk holding the database \(path) is full. Free space on it (df -h \(folder)); "
                + "nothing queued is lost, and printing resumes by itself once there is room."
        case .locked:
            "The database \(path) stayed locked by another process for more than its wait. "
                + "Find it with `fuser \(path)` (a backup or an sqlite3 shell left open); printing resumes once it lets go."
        case .damaged:
            "The database \(path) is damaged (SQLite reports it corrupt). Stop the agent, keep a copy of the file, "
                + "check it with `sqlite3 \(path) 'PRAGMA integrity_check'`, and restore it from a backup; it is never replaced silently."
        case .readOnly:
            "The database \(path) cannot be written (read-only, or its folder's permissions changed). "
                + "Check that \(folder) is writable by the agent's user and that the disk is not mounted read-only."
        case .ioError:
            "The disk holding the database \(path) failed a read or write (an I/O error). Check the disk (dmesg) "
                + "and its free space; printing resumes by itself if the fault passes."
        }
    }
}

extension KioskStore {
    /// `error` in words for the operator when it is trouble with the
    /// database's storage, else its own description.
    public func explain(_ error: any Error) -> String {
        StorageTrouble(error)?.describe(database: path) ?? "\(error)"
    }
}
