import Foundation
import GRDB

/// The file beside the database (`kioskprint.sqlite-wake`) whose change time
/// tells a running agent that another process gave its spooler work: a job
/// queued or sent again, a printer given a role or moved. The agent watches
/// it with inotify (Triggers' `DatabaseChanges`) and looks for work at once,
/// instead of only every `look-every`.
///
/// Why a file of its own, not the database's: the agent used to watch the
/// WAL, but SQLite writes it page by page, and the agent's own commits (its
/// claims, marks and finishes) then woke it about 26 times per receipt for
/// nothing, each wake-up a thread switch and often a look at the queue
/// (measured: 130 thread switches and 7.2 ms of CPU per folder receipt,
/// against 83 and 6.5 without the watch). Only the store's methods that can
/// give the spooler work ring this file, once per commit.
public enum WakeFile {
    /// The wake file of the database at `databasePath`.
    public static func path(forDatabase databasePath: String) -> String { databasePath + "-wake" }

    /// The progress file of the database at `databasePath`
    /// (`kioskprint.sqlite-progress`): touched after each commit that
    /// changes a held job (sending, sent, waiting, what the printer said, its
    /// end) or cancels one, so that `kioskprint print --wait` beside a
    /// running agent learns of its job's progress as it lands, instead of
    /// asking every 50 ms. A file apart from the wake file, so that the
    /// agent's own progress does not wake the agent.
    public static func progressPath(forDatabase databasePath: String) -> String { databasePath + "-progress" }

    /// Sets the file's times to now (IN_ATTRIB for a watcher), creating it
    /// (mode 0600, owned as the database's folder, as ``KioskStore`` creates
    /// the database) when it is missing. A failure is not an error for the
    /// caller: its commit stands, and the agent finds the work at its next
    /// look.
    static func ring(_ path: String) {
        if utimensat(AT_FDCWD, path, nil, 0) == 0 || errno != ENOENT { return }
        _ = KioskStore.createOwnedFile(at: path)
        // Created (here or by another process meanwhile): the creation itself
        // is no IN_ATTRIB, so touch it once more.
        _ = utimensat(AT_FDCWD, path, nil, 0)
    }
}

extension KioskStore {
    /// This database's wake file (``WakeFile``).
    public var wakeFilePath: String { WakeFile.path(forDatabase: path) }

    /// Tells a running agent (this process's or another's) that a commit just
    /// gave its spooler work. Called after the commit, never inside it: a
    /// watcher woken early would look before the work is visible.
    func announceWork() { WakeFile.ring(wakeFilePath) }

    /// This database's progress file (``WakeFile/progressPath(forDatabase:)``).
    public var progressFilePath: String { WakeFile.progressPath(forDatabase: path) }

    /// Tells whoever follows a job that a commit just changed one. After the
    /// commit, as ``announceWork()``.
    func announceProgress() { WakeFile.ring(progressFilePath) }
}

extension KioskStore {
    /// A write whose commit can give the spooler work (``WakeFile``), announced
    /// once it has committed; a write that throws announces nothing.
    func writeGivingWork<T: Sendable>(_ updates: @escaping @Sendable (Database) throws -> T) async throws -> T {
        let result = try await database.write(updates)
        announceWork()
        return result
    }
}
