public import Foundation
public import Store

/// Keeps finished jobs and their spool files from growing without bound: the
/// purge the agent runs every `purge-every` and `kioskprint jobs purge` runs
/// on demand. It removes the finished jobs older than `keepFor` or beyond the
/// newest `keepJobs` (always keeping each role's last job, for a reprint),
/// then their files in the spool folder, then gives the database's free
/// pages back to the disk.
public struct JobRetention: Sendable {
    public let store: KioskStore
    /// The spool folder: only files directly in it are ever deleted.
    public let spoolFolder: String
    /// Finished jobs older than this go; nil: no age limit.
    public var keepFor: Duration?
    /// Only this many of the newest finished jobs stay; nil: no count limit.
    public var keepJobs: Int?

    /// - Parameter spoolFolder: nil for the one beside the database, as ``JobIntake`` uses.
    public init(store: KioskStore, spoolFolder: String? = nil, keepFor: Duration?, keepJobs: Int?) {
        self.store = store
        self.spoolFolder = spoolFolder ?? JobIntake.spoolFolder(forDatabase: store.path)
        self.keepFor = keepFor
        self.keepJobs = keepJobs
    }

    /// Purges once. With `dryRun`, removes nothing and reports what it would remove.
    public func purge(dryRun: Bool = false, now: Date = Date()) async throws(RetentionError) -> PurgeReport {
        let rule = PurgeRule(endedBefore: keepFor.map { now.addingTimeInterval(-Self.seconds($0)) }, keepNewest: keepJobs)
        let purged: PurgedJobs
        do {
            purged = try await store.purgeFinishedJobs(rule, spoolFolder: spoolFolder, dryRun: dryRun)
        } catch {
            throw RetentionError(database: store.path, reason: "\(error)")
        }
        var report = PurgeReport(dryRun: dryRun, jobs: purged.jobs)
        for path in purged.documents {
            guard let size = Self.regularFileSize(path) else { continue }  // gone already, or not a plain file: left alone
            if dryRun || unlink(path) == 0 {
                report.files += 1
                report.spoolBytes += size
            } else {
                report.filesKept[path] = String(cString: strerror(errno))
            }
        }
        if !dryRun, purged.jobs > 0 {
            // The jobs are gone whatever happens here; a failure only leaves free pages for later.
            report.databaseBytes = (try? await store.reclaimFreePages()) ?? 0
        }
        return report
    }

    private static func regularFileSize(_ path: String) -> Int64? {
        var info = stat()
        guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int64(info.st_size)
    }

    private static func seconds(_ duration: Duration) -> TimeInterval {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}

/// What one purge removed, or would remove in a dry run.
public struct PurgeReport: Sendable, Equatable, CustomStringConvertible {
    public var dryRun: Bool
    /// Finished jobs removed from the database.
    public var jobs: Int
    /// Spool files deleted, and their bytes.
    public var files = 0
    public var spoolBytes: Int64 = 0
    /// Bytes of free pages the database gave back to the disk.
    public var databaseBytes: Int64 = 0
    /// Spool files that could not be deleted, with the reason.
    public var filesKept: [String: String] = [:]

    public init(dryRun: Bool = false, jobs: Int = 0) {
        self.dryRun = dryRun
        self.jobs = jobs
    }

    /// Spool files and database pages together.
    public var bytesFreed: Int64 { spoolBytes + databaseBytes }

    /// One line for a log or a terminal.
    public var description: String {
        if jobs == 0 { return "Nothing to purge: no finished job is past the limits." }
        let jobsText = "\(jobs) finished job\(jobs == 1 ? "" : "s")"
        let filesText = "\(files) spool file\(files == 1 ? "" : "s")"
        if dryRun { return "Would remove \(jobsText) and \(filesText) (\(Self.size(spoolBytes)))." }
        var text = "Removed \(jobsText) and \(filesText); freed \(Self.size(bytesFreed)): \(Self.size(spoolBytes)) of spool files, "
            + "\(Self.size(databaseBytes)) of database pages."
        if !filesKept.isEmpty {
            text += " \(filesKept.count) spool file(s) could not be deleted: "
                + filesKept.sorted { $0.key < $1.key }.map { "\($0.key) (\($0.value))" }.joined(separator: ", ")
                + "; check the spool folder's permissions, or delete them by hand."
        }
        return text
    }

    /// `812 bytes`, `24 KB`, `1.2 MB` (1 KB = 1,024 bytes, as the configuration's sizes).
    static func size(_ bytes: Int64) -> String {
        switch bytes {
        case ..<1024: "\(bytes) bytes"
        case ..<1_048_576: "\((bytes + 1023) / 1024) KB"
        default: String(format: "%.1f MB", Double(bytes) / 1_048_576)
        }
    }
}

/// A purge that could not read or change the database.
public struct RetentionError: Error, Sendable, Equatable, CustomStringConvertible {
    public var database: String
    public var reason: String

    public var description: String {
        "Finished jobs could not be purged from \(database): \(reason). Printing goes on; the database keeps growing "
            + "until a purge succeeds. Check the disk's free space and the file's permissions, then run kioskprint jobs purge."
    }
}
