import Glibc
import Foundation

/// Writes to a SQLite database in WAL mode, by any process: the spooler's
/// wake-up for jobs another process queued (`kioskprint print` beside a
/// running agent), so that an idle agent need not keep asking the database.
///
/// Every commit appends to `NAME-wal` with write(2), which inotify reports as
/// IN_MODIFY on the database's folder; a checkpoint writes `NAME` itself. A
/// transaction that changes nothing writes neither, so the spooler's own
/// empty look for work does not wake it again.
///
/// ```swift
/// let changes = try DatabaseChanges(database: "/var/lib/kioskprint/kioskprint.sqlite")
/// for await _ in changes.writes { spooler.wake() }   // until changes.stop()
/// ```
public final class DatabaseChanges: Sendable {
    private let watcher: InotifyWatcher
    private let database: String

    /// Starts watching the folder of the database at `path`. Throws
    /// `TriggerError` when inotify is unavailable or the folder cannot be read.
    public init(database path: String) throws {
        let url = URL(fileURLWithPath: path)
        database = url.lastPathComponent
        watcher = try InotifyWatcher(folder: url.deletingLastPathComponent().path, events: UInt32(IN_MODIFY))
    }

    deinit { stop() }

    /// The name of each database file written (`kioskprint.sqlite-wal`), as
    /// they come; other files in the folder are left out. Iterate it once:
    /// it finishes when stopped or when the folder goes away.
    public var writes: some AsyncSequence<String, Never> {
        let names: Set<String> = [database, database + "-wal"]
        let database = self.database
        return watcher.changes.compactMap { change -> String? in
            switch change {
            case .arrived(let file), .created(let file): names.contains(file) ? file : nil
            case .lost: database  // the kernel's queue overflowed: something may have been written
            }
        }
    }

    /// Stops watching; `writes` then finishes. Safe to call twice.
    public func stop() { watcher.stop() }
}
