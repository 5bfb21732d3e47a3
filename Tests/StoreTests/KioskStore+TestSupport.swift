import Foundation
import GRDB
import PrintModel
@testable import Store

/// Store operations only the tests need: the agent never lists every saved
/// printer, and its spooler retries at the printer instead of putting a job
/// back in the queue. They live here so the product carries no code for them.
extension KioskStore {
    /// Every saved printer, by name: what the printer table holds, roles or not.
    func savedPrinters() async throws -> [SavedPrinter] {
        try await database.read { db in
            try PrinterRecord.order(Column("name").collating(.localizedCaseInsensitiveCompare), Column("id"))
                .fetchAll(db).map { try $0.saved() }
        }
    }

    /// A send failed and no printer has the job: counts the attempt, puts the
    /// job back to `queued`, due at `at`, and lets go of it. It goes through
    /// the same claim checks as the spooler's own changes.
    @discardableResult
    func scheduleRetry(jobID: JobID, owner: String, error: String, at retryAt: Date,
                       now: Date = Date()) async throws -> PrintJob {
        try await changeHeldJob(jobID, owner: owner, now: now) { record in
            record.state = JobState.queued.rawValue
            record.attempts += 1
            record.nextAttemptAt = retryAt
            record.lastError = error
            record.printerJobId = nil
            record.claimedBy = nil
            record.claimExpiresAt = nil
        }
    }
}

/// Setting the scene for the retention tests without thousands of round trips.
extension KioskStore {
    /// Inserts `count` jobs of `role` in one transaction, already `state`
    /// (ended at `endedAt` when the state is terminal), each with `payload`
    /// bytes of template data, as the spooler would have left them.
    func insertJobs(_ count: Int, role: String, state: JobState, endedAt: Date, payload: Int = 200) async throws {
        let data = #"{"text": ""# + String(repeating: "x", count: payload) + #""}"#
        try await database.write { db in
            for _ in 0..<count {
                try db.execute(sql: """
                    INSERT INTO job (name, role, contentKind, templateName, templateData, state, createdAt, updatedAt,
                                     marker, completedAt)
                    VALUES ('bulk', ?1, 'template', 'receipt', ?2, ?3, ?4, ?4, 'kp-new-' || lower(hex(randomblob(8))), ?5)
                    """, arguments: [role, data, state.rawValue, endedAt, state.isTerminal ? endedAt : nil])
            }
        }
    }

    /// Changes a job's state directly, e.g. to held or set-aside.
    func forceState(_ id: JobID, _ state: JobState, at date: Date) async throws {
        try await database.write { db in
            try db.execute(sql: "UPDATE job SET state = ?, completedAt = ?, updatedAt = ? WHERE id = ?",
                           arguments: [state.rawValue, state.isTerminal ? date : nil, date, id.rawValue])
        }
    }

    /// The database file's size once everything in the WAL is in it.
    func checkpointedFileSize() async throws -> Int64 {
        try await database.writeWithoutTransaction { db in _ = try Row.fetchAll(db, sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return (attributes[.size] as? NSNumber)?.int64Value ?? 0
    }

    /// The file's auto_vacuum mode: 0 NONE, 1 FULL, 2 INCREMENTAL.
    func autoVacuumMode() async throws -> Int {
        try await database.read { db in try Int.fetchOne(db, sql: "PRAGMA auto_vacuum") ?? -1 }
    }
}
