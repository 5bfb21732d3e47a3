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
        try await pool.read { db in
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
