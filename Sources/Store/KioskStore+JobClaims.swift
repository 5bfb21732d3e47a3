public import Foundation
import GRDB
public import PrintModel

/// The spooler's side of the job queue.
///
/// A spooler process works on a job only while it holds the job's claim: a
/// lease under its `owner` name (unique to the process, e.g. host, pid and a
/// random suffix), renewed while it works. A claim that runs out means its
/// holder died; another process may then take the job over. Every change
/// below names its owner and is refused (`StoreError.notClaimOwner`) when
/// another process holds the job, and (`StoreError.jobFinished`) when it has
/// ended, e.g. canceled by an operator meanwhile. A lapsed claim that no one
/// has taken over is still its owner's.
extension KioskStore {
    /// Takes the next job of `role` to work on, or nil when there is none or
    /// the role's turn is taken.
    ///
    /// Per role, one job is in flight at a time and jobs go in order: the
    /// candidate is the role's job already handed to a printer (sending, sent,
    /// or waiting with a printer job id), else its oldest unfinished job. It is
    /// taken if no one else holds it (unclaimed, claim run out, or already
    /// `owner`'s: asking again renews the lease), it is due (`nextAttemptAt`
    /// not after `now`), and no other job of the role is held. A job taken
    /// over in `sending` or `sent` needs recovery: look for its marker at the
    /// printer before sending it again.
    ///
    /// One UPDATE in an IMMEDIATE transaction: processes that race each get a
    /// different job or none, never the same one.
    ///
    /// - Parameter setAside: told of each row set aside (after the commit), to log it.
    public func claimNext(role: Role, owner: String, lease: Duration, now: Date = Date(),
                          setAside: (JobID, String) -> Void = { _, _ in }) async throws -> PrintJob? {
        let expires = try Self.expiry(of: lease, from: now)
        let (claimed, setAsideRows) = try await database.writeWithoutTransaction { db -> (PrintJob?, [(JobID, String)]) in
            // Most looks find nothing: a role woken by another role's commits,
            // a queue that ran dry. Those run one cached SELECT, outside any
            // transaction: no write lock, no commit, none of the statements a
            // claim runs (about eleven such looks a receipt with two roles).
            // On the writer, not a reader: a read through the pool's readers
            // cost more thread switches than the claim it saved (32k to 45k
            // over the cpu bench).
            guard try Self.hasUnfinishedJob(db, role: role) else { return (nil, []) }
            // Not synced on its own (see `writeWithoutOwnSync`): a claim only
            // matters while its process lives, and the job's next change is synced.
            return try Self.committingWithoutOwnSync(db) { db in
                try Self.claimOldest(db, role: role, owner: owner, expires: expires, now: now)
            }
        }
        for (id, reason) in setAsideRows { setAside(id, reason) }
        return claimed
    }

    /// Claims `role`'s oldest claimable job for `owner`, in the writer's
    /// transaction; returns it (nil when none is claimable) and the rows set
    /// aside on the way. A row this version cannot read is set aside (a state
    /// of its own, kept for the operator) and the next one is taken, so one
    /// bad row never stops a role. Bounded: each pass sets one row aside for good.
    private static func claimOldest(_ db: Database, role: Role, owner: String, expires: Date,
                                    now: Date) throws -> (PrintJob?, [(JobID, String)]) {
        var setAsideRows: [(JobID, String)] = []
        while true {
            // Compiled once per connection: the spooler claims before every job.
            guard let record = try JobRecord.fetchOne(db.cachedStatement(sql: """
                UPDATE job SET claimedBy = :owner, claimExpiresAt = :expires
                WHERE id = (
                    SELECT id FROM job WHERE role = :role AND state IN \(Self.unfinishedList)
                    ORDER BY CASE WHEN state IN ('sending', 'sent') OR printerJobId IS NOT NULL THEN 0 ELSE 1 END, id
                    LIMIT 1)
                  AND (claimedBy IS NULL OR claimedBy = :owner OR claimExpiresAt <= :now)
                  AND (nextAttemptAt IS NULL OR nextAttemptAt <= :now)
                  AND NOT EXISTS (
                    SELECT 1 FROM job AS other
                    WHERE other.role = :role AND other.id <> job.id AND other.state IN \(Self.unfinishedList)
                      AND other.claimedBy IS NOT NULL AND other.claimExpiresAt > :now)
                RETURNING *
                """), arguments: ["owner": owner, "expires": StoredDate(expires), "role": role.name, "now": StoredDate(now)]) else {
                return (nil, setAsideRows)
            }
            do { return (try record.job(), setAsideRows) } catch {
                setAsideRows.append((record.jobID, "\(error)"))
                try db.execute(sql: """
                    UPDATE job SET state = :setAside, lastError = :reason, claimedBy = NULL, claimExpiresAt = NULL,
                                   completedAt = :now, updatedAt = :now
                    WHERE id = :id
                    """, arguments: ["setAside": JobState.setAside.rawValue, "now": StoredDate(now), "id": record.id,
                                     "reason": "Set aside: this version of KioskPrint cannot read it (\(error)). "
                                        + "It is kept as it is; the role's other jobs go on. Print it again from its "
                                        + "source, or with the KioskPrint version that queued it."])
            }
        }
    }

    /// Whether `role` has a job not yet finished, claimable or not.
    private static func hasUnfinishedJob(_ db: Database, role: Role) throws -> Bool {
        try Bool.fetchOne(db.cachedStatement(sql: """
            SELECT EXISTS (SELECT 1 FROM job WHERE role = ? AND state IN \(unfinishedList))
            """), arguments: [role.name]) ?? false
    }

    /// Extends `owner`'s claim to `now + lease`. Returns the job as stored, so
    /// a spooler following a job also learns of an operator's cancel request.
    @discardableResult
    public func renewClaim(jobID: JobID, owner: String, lease: Duration, now: Date = Date()) async throws -> PrintJob {
        let expires = try Self.expiry(of: lease, from: now)
        return try await changeHeldJob(jobID, owner: owner, now: now, touches: false, synced: false) { record in
            record.claimExpiresAt = expires
        }
    }

    /// Lets go of a job without changing its state, so another process (or
    /// this one, later) may take it. Nothing to do if it is not held or has
    /// ended; refused if another process holds it.
    public func releaseClaim(jobID: JobID, owner: String) async throws {
        try await writeGivingWork { db in
            var record = try Self.fetchRecord(db, jobID)
            guard let holder = record.claimedBy else { return }
            guard holder == owner else {
                throw StoreError.notClaimOwner(job: jobID, owner: owner, holder: holder)
            }
            record.claimedBy = nil
            record.claimExpiresAt = nil
            try record.update(db)
        }
    }

    /// Records that the job is about to go to `printer`, before anything is
    /// sent: after a crash, `sending` says the printer may have it. Clears the
    /// last printer job id and the retry time. `pages` (of one copy) defaults
    /// to the number of `cutLengths` (hundredths of a millimetre, as rendered).
    @discardableResult
    public func markSending(jobID: JobID, owner: String, printer: JobPrinter, pages: Int? = nil,
                            cutLengths: [Int]? = nil, now: Date = Date()) async throws -> PrintJob {
        try await changeHeldJob(jobID, owner: owner, now: now) { record in
            record.state = JobState.sending.rawValue
            record.printer = printer
            record.printerJobId = nil
            record.nextAttemptAt = nil
            record.stateReasons = "[]"
            record.impressionsCompleted = 0
            record.pagesExpected = pages ?? cutLengths?.count
            record.cutLengths = cutLengths.map { JobRecord.encode($0) }
        }
    }

    /// Records that the printer accepted the job as `printerJobID`; the
    /// spooler follows it from here. Not synced on its own, so the first
    /// look at the job is not held up by a sync: the `sending` mark before
    /// it is, and a job found `sending` after a power cut is looked for at
    /// the printer by its marker, as when the printer's answer was lost.
    @discardableResult
    public func markSent(jobID: JobID, owner: String, printerJobID: Int, now: Date = Date()) async throws -> PrintJob {
        try await changeHeldJob(jobID, owner: owner, now: now, synced: false) { record in
            record.state = JobState.sent.rawValue
            record.printerJobId = printerJobID
        }
    }

    /// Records what following the job at the printer found: its reasons
    /// (`job-state-reasons`), pages printed so far, and, when given, a new
    /// unfinished state (`waiting` while the printer is stopped, `sent` when it
    /// goes on). Ending states go through `finish`.
    @discardableResult
    public func recordProgress(jobID: JobID, owner: String, state: JobState? = nil, reasons: [String],
                               impressions: Int? = nil, now: Date = Date()) async throws -> PrintJob {
        if let state, state.isTerminal || state == .queued {
            throw StoreError.invalidJob("Progress cannot make job \(jobID) \(state): it records waiting or sent; a job ends through finish.")
        }
        // Not synced on its own: lost to a power cut, it is read again from the printer.
        return try await changeHeldJob(jobID, owner: owner, now: now, synced: false) { record in
            if let state { record.state = state.rawValue }
            record.stateReasons = JobRecord.encode(reasons)
            if let impressions { record.impressionsCompleted = impressions }
        }
    }

    /// Printer trouble holds the job up (out of paper, offline, unreachable):
    /// `reason` says so to the operator, `stateReasons` gives the printer's
    /// keywords. The claim is kept; if its owner dies, another process takes
    /// the job no earlier than `retryAt`. Keep the printer job id's meaning:
    /// a waiting job with none has not reached a printer, and an operator's
    /// cancel ends it at once.
    @discardableResult
    public func markWaiting(jobID: JobID, owner: String, reason: String, stateReasons: [String] = [],
                            retryAt: Date? = nil, now: Date = Date()) async throws -> PrintJob {
        try await changeHeldJob(jobID, owner: owner, now: now) { record in
            record.state = JobState.waiting.rawValue
            record.lastError = reason
            record.stateReasons = JobRecord.encode(stateReasons)
            record.nextAttemptAt = retryAt
        }
    }

    /// Counts one failed send (the printer was busy or unreachable, or the
    /// send broke off), for `jobs show` and the operator's judgement.
    @discardableResult
    public func countFailedSend(jobID: JobID, owner: String, now: Date = Date()) async throws -> PrintJob {
        try await changeHeldJob(jobID, owner: owner, now: now, touches: false) { record in record.attempts += 1 }
    }

    /// Ends the job: `completed`, `failed` (with `error`: bad content, a
    /// client-error), `canceled` or `aborted` (by the printer). The claim is
    /// dropped; `lastError` keeps its earlier value when `error` is nil.
    ///
    /// - Parameters:
    ///   - stateReasons, impressions: the printer's last word on the job, when
    ///     it had one, recorded as `recordProgress` records it but in the same
    ///     transaction: one commit (one sync to disk) where two would do.
    ///   - printerJobID: the printer's id for the job, when the spooler had
    ///     not recorded it with `markSent` yet (a receipt that ended within
    ///     its first looks): recorded in the same commit.
    @discardableResult
    public func finish(jobID: JobID, owner: String, state: JobState, error: String? = nil,
                       stateReasons: [String]? = nil, impressions: Int? = nil, printerJobID: Int? = nil,
                       now: Date = Date()) async throws -> PrintJob {
        guard state.isTerminal else {
            throw StoreError.invalidJob("Job \(jobID) cannot finish as \(state): it ends completed, failed, canceled or aborted.")
        }
        return try await changeHeldJob(jobID, owner: owner, now: now) { record in
            if let stateReasons { record.stateReasons = JobRecord.encode(stateReasons) }
            if let impressions { record.impressionsCompleted = impressions }
            if let printerJobID { record.printerJobId = printerJobID }
            record.state = state.rawValue
            record.completedAt = now
            record.nextAttemptAt = nil
            if let error { record.lastError = error }
            record.claimedBy = nil
            record.claimExpiresAt = nil
        }
    }

    // MARK: - Inside a transaction

    /// Applies `change` to a job `owner` holds, in one write transaction,
    /// synced to disk unless `synced` is false (see `writeWithoutOwnSync`).
    /// Internal rather than private so tests can make changes of their own
    /// under the same claim checks.
    func changeHeldJob(_ id: JobID, owner: String, now: Date, touches: Bool = true, synced: Bool = true,
                               _ change: @escaping @Sendable (inout JobRecord) -> Void) async throws -> PrintJob {
        let update: @Sendable (Database) throws -> PrintJob = { db in
            var record = try Self.fetchRecord(db, id)
            let state = try record.jobState()
            guard !state.isTerminal else { throw StoreError.jobFinished(id, state) }
            guard record.claimedBy == owner else {
                throw StoreError.notClaimOwner(job: id, owner: owner, holder: record.claimedBy)
            }
            change(&record)
            if touches { record.updatedAt = now }
            try record.update(db)
            return try record.job()
        }
        let changed = try await synced ? database.write(update) : writeWithoutOwnSync(update)
        // A renewal (touches: false) changes nothing a follower shows.
        if touches { announceProgress() }
        return changed
    }

    /// `updates` in one write transaction whose commit is not synced to disk
    /// by itself: for changes that need no durability of their own (a claim,
    /// its renewal, the printer's job id, what the printer said of a job),
    /// because after a power cut they are found again. The WAL is one file,
    /// synced whole, so the next synced commit (the job's `sending` mark
    /// before it goes out, its end) takes them to disk too; a power cut
    /// before that loses only them: a claim dies with its process anyway, and
    /// the printer is asked again. `print --wait` sends one sync sooner.
    /// The connection is set back to FULL before anything else can commit.
    func writeWithoutOwnSync<T: Sendable>(_ updates: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await database.writeWithoutTransaction { db in try Self.committingWithoutOwnSync(db, updates) }
    }

    /// `updates` in one transaction of the writer `db`, committed without a
    /// sync of its own (see `writeWithoutOwnSync`).
    static func committingWithoutOwnSync<T>(_ db: Database, _ updates: (Database) throws -> T) throws -> T {
        try db.execute(sql: "PRAGMA synchronous = NORMAL")
        var result: T?
        let outcome = Result { try db.inTransaction { result = try updates(db); return .commit } }
        try db.execute(sql: "PRAGMA synchronous = FULL")
        try outcome.get()
        guard let result else { preconditionFailure("a committed transaction ran its updates") }
        return result
    }

    private static func expiry(of lease: Duration, from now: Date) throws(StoreError) -> Date {
        let (seconds, attoseconds) = lease.components
        let interval = Double(seconds) + Double(attoseconds) / 1e18
        guard interval > 0 else { throw StoreError.invalidJob("A claim's lease must be longer than zero (got \(lease)).") }
        return now.addingTimeInterval(interval)
    }
}
