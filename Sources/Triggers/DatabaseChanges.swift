import Glibc
import Foundation

/// Work other processes gave the spooler: the agent's wake-up for a job
/// `kioskprint print` queues beside it, so that an idle agent need not keep
/// asking the database.
///
/// A store that commits such work touches the database's wake file
/// (`kioskprint.sqlite-wake`, Store's `WakeFile`); inotify reports that as
/// IN_ATTRIB on its folder. Only that is watched, not the database or its
/// WAL: SQLite writes the WAL page by page, and the agent's own commits would
/// wake it for nothing (Store's `WakeFile` has the figures).
///
/// ```swift
/// let changes = try DatabaseChanges(touchesOf: store.wakeFilePath)
/// for await _ in changes.writes { spooler.wake() }   // until changes.stop()
/// ```
public final class DatabaseChanges: Sendable {
    private let watcher: InotifyWatcher
    private let name: String

    /// Starts watching the folder of the file at `path` for touches of it
    /// (the file need not exist yet): the wake file for the agent, the
    /// progress file for `print --wait` following a job the agent prints. Throws `TriggerError` when inotify is unavailable or
    /// the folder cannot be read.
    public init(touchesOf path: String) throws {
        let url = URL(fileURLWithPath: path)
        name = url.lastPathComponent
        watcher = try InotifyWatcher(folder: url.deletingLastPathComponent().path, events: UInt32(IN_ATTRIB))
    }

    deinit { stop() }

    /// The wake file's name each time it is touched, as they come; other
    /// files in the folder are left out. Iterate it once: it finishes when
    /// stopped or when the folder goes away.
    public var writes: some AsyncSequence<String, Never> {
        let name = self.name
        return watcher.changes.compactMap { change -> String? in
            switch change {
            case .arrived(let file), .created(let file): file == name ? file : nil
            case .lost: name  // the kernel's queue overflowed: the file may have been touched
            }
        }
    }

    /// Stops watching; `writes` then finishes. Safe to call twice.
    public func stop() { watcher.stop() }
}
