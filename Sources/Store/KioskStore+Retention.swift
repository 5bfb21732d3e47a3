public import Foundation
import GRDB
public import PrintModel

/// Which finished jobs a purge removes: those that ended before
/// `endedBefore`, and those beyond the newest `keepNewest` finished jobs.
/// Either limit removes a job; nil leaves that limit out.
public struct PurgeRule: Sendable, Equatable {
    public var endedBefore: Date?
    public var keepNewest: Int?

    public init(endedBefore: Date? = nil, keepNewest: Int? = nil) {
        self.endedBefore = endedBefore
        self.keepNewest = keepNewest
    }
}

/// What a purge removed from the database (or, in a dry run, would remove).
public struct PurgedJobs: Sendable, Equatable {
    /// How many finished jobs.
    public var jobs: Int
    /// Their documents that lay directly in the spool folder and that no
    /// remaining job names (a reprint names its original's file): the caller
    /// deletes these files, and no other.
    public var documents: [String]

    public init(jobs: Int = 0, documents: [String] = []) {
        self.jobs = jobs
        self.documents = documents
    }
}

/// Retention: finished jobs removed, so a kiosk that runs for years keeps a
/// database of a steady size.
extension KioskStore {
    /// The states a purge removes: jobs that ended by themselves. Held and
    /// set-aside jobs wait for an operator and are never purged, nor is
    /// anything unfinished.
    public static let purgeableStates: [JobState] = [.completed, .failed, .canceled, .aborted]

    /// Rows deleted per write transaction: small enough that the spooler's
    /// own writes never wait long behind a big purge.
    public static let purgeBatch = 500

    /// Deletes the finished jobs `rule` selects, oldest first, in batches of
    /// `batchSize`, each its own transaction. The newest job of each role and
    /// the newest completed one are always kept, as they are what "reprint
    /// last" picks (``lastJob(role:completedOnly:)``). With `dryRun`, deletes
    /// nothing and says what it would delete.
    ///
    /// - Parameter spoolFolder: only documents directly inside it are returned.
    public func purgeFinishedJobs(_ rule: PurgeRule, spoolFolder: String, dryRun: Bool = false,
                                  batchSize: Int = KioskStore.purgeBatch) async throws -> PurgedJobs {
        // The count limit as an id: every finished job at or below it is beyond the newest N.
        let upTo: Int64? = if let keep = rule.keepNewest {
            try await database.read { db in
                try Int64.fetchOne(db, sql: "SELECT id FROM job WHERE state IN \(Self.purgeableList) ORDER BY id DESC LIMIT 1 OFFSET ?",
                                   arguments: [max(0, keep)])
            }
        } else { nil }
        guard rule.endedBefore != nil || upTo != nil else { return PurgedJobs() }
        let arguments: StatementArguments = ["before": rule.endedBefore, "upTo": upTo]
        let folder = Self.standardFolder(spoolFolder)
        if dryRun {
            return try await database.read { db in
                let rows = try Row.fetchAll(db, sql: "SELECT id, documentPath FROM job WHERE \(Self.purgeCandidates)", arguments: arguments)
                let ids = Set(rows.map { $0["id"] as Int64 })
                let paths = Set(rows.compactMap { $0["documentPath"] as String? }).filter { Self.isInside($0, folder: folder) }
                let orphaned = try paths.filter { path in
                    try Int64.fetchAll(db, sql: "SELECT id FROM job WHERE documentPath = ?", arguments: [path]).allSatisfy(ids.contains)
                }
                return PurgedJobs(jobs: rows.count, documents: orphaned.sorted())
            }
        }
        var purged = PurgedJobs()
        let batchSize = max(1, batchSize)
        while true {
            let batch = try await database.write { db -> PurgedJobs in
                var batchArguments = arguments
                batchArguments += ["limit": batchSize]
                let deleted = try String?.fetchAll(db, sql: """
                    DELETE FROM job WHERE id IN (SELECT id FROM job WHERE \(Self.purgeCandidates) ORDER BY id LIMIT :limit)
                    RETURNING documentPath
                    """, arguments: batchArguments)
                let paths = Set(deleted.compactMap { $0 }).filter { Self.isInside($0, folder: folder) }
                let orphaned = try paths.filter { path in
                    try Int.fetchOne(db, sql: "SELECT 1 FROM job WHERE documentPath = ? LIMIT 1", arguments: [path]) == nil
                }
                return PurgedJobs(jobs: deleted.count, documents: orphaned.sorted())
            }
            purged.jobs += batch.jobs
            purged.documents += batch.documents
            if batch.jobs < batchSize { break }
            await Task.yield()  // let the spooler's writes in between batches
        }
        return purged
    }

    /// Gives the free pages a purge left back to the file system, a bounded
    /// step at a time, and returns how many bytes that was. A file still
    /// without incremental auto_vacuum (too large to convert at open, see
    /// ``KioskStore/useIncrementalVacuum(_:upTo:)``) is converted here, with
    /// VACUUM, now that the purge has left only what it keeps. In WAL mode
    /// the file itself shrinks at the next checkpoint.
    @discardableResult
    public func reclaimFreePages(step: Int = 2000) async throws -> Int64 {
        var reclaimed: Int64 = 0
        while true {
            let (freed, more) = try await database.writeWithoutTransaction { db -> (Int64, Bool) in
                let pageSize = try Int64.fetchOne(db, sql: "PRAGMA page_size") ?? 4096
                guard try Self.usesIncrementalVacuum(db) else {
                    let before = try Int64.fetchOne(db, sql: "PRAGMA page_count") ?? 0
                    try Self.convertToIncrementalVacuum(db)
                    let after = try Int64.fetchOne(db, sql: "PRAGMA page_count") ?? 0
                    return (max(0, before - after) * pageSize, false)
                }
                let before = try Int.fetchOne(db, sql: "PRAGMA freelist_count") ?? 0
                guard before > 0 else { return (0, false) }
                try db.execute(sql: "PRAGMA incremental_vacuum(\(max(1, step)))")
                let after = try Int.fetchOne(db, sql: "PRAGMA freelist_count") ?? 0
                return (Int64(before - after) * pageSize, after > 0 && after < before)
            }
            reclaimed += freed
            if !more { break }
            await Task.yield()
        }
        if reclaimed > 0 {
            // Non-blocking: copies what it can into the file now, so it shrinks without waiting for the next auto-checkpoint.
            _ = try? await database.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_checkpoint(PASSIVE)") }
        }
        return reclaimed
    }

    /// How many jobs the database holds, finished or not. For tests and
    /// benchmarks (the agent never asks): SPI, since the benchmarks are a
    /// package of their own, which `package` access does not reach.
    @_spi(Testing) public func jobCount() async throws -> Int {
        try await database.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM job") ?? 0 }
    }

    // MARK: - Private

    static let purgeableList = "(" + purgeableStates.map { "'\($0.rawValue)'" }.joined(separator: ", ") + ")"

    /// The rows a purge takes, with :before and :upTo. A job ended at
    /// completedAt; a row without one (never expected) by its last change.
    private static let purgeCandidates = """
        state IN \(purgeableList)
        AND ((:before IS NOT NULL AND COALESCE(completedAt, updatedAt) < :before) OR (:upTo IS NOT NULL AND id <= :upTo))
        AND id NOT IN (SELECT MAX(id) FROM job GROUP BY role)
        AND id NOT IN (SELECT MAX(id) FROM job WHERE state = 'completed' GROUP BY role)
        """

    private static func standardFolder(_ folder: String) -> String {
        (folder as NSString).standardizingPath
    }

    /// True for a file directly in `folder` (already standardized): never
    /// a file elsewhere, nor one in a sub-folder or reached through `..`.
    static func isInside(_ path: String, folder: String) -> Bool {
        guard path.hasPrefix("/"), !folder.isEmpty, folder != "/" else { return false }
        let standard = (path as NSString).standardizingPath
        return (standard as NSString).deletingLastPathComponent == folder && standard.count > folder.count + 1
    }
}
