public import Foundation
import GRDB
public import PrintModel

/// The job queue: accepting jobs and what an operator sees and does (list,
/// cancel, retry). The spooler's side (claims and state changes) is in
/// KioskStore+JobClaims.swift.
extension KioskStore {
    /// Accepts a job: stores it as `queued` with its marker and returns it once
    /// the commit is on disk (the database syncs every commit), so a job this
    /// returns survives a crash or a power cut.
    ///
    /// - Parameter source: where the job came from (a claimed file's path), for
    ///   ``job(source:since:)``.
    /// - Parameter opensDrawer: kick the cash drawer after the job's cut.
    /// - Parameter idempotency: an HTTP caller's key and request hash, kept
    ///   with the job in the same commit; a second job with the same key is
    ///   refused by the database (`job(idempotencyKey:)` finds the first).
    /// - Parameter submittedBy: the API token's name that queued it, nil for
    ///   jobs from elsewhere; see ``submitter(of:)``.
    /// - Parameter id: an id taken earlier with ``reserveJobID()`` (an IPP
    ///   Create-Job, whose job number the client holds before the document
    ///   comes); nil for the next one.
    /// - Parameter whenInserted: called with the new job's id inside the
    ///   transaction, before any other connection can see the job (the
    ///   intake announces a drawing on its way there, before the spooler can
    ///   claim the job).
    public func enqueue(name: String, role: Role, content: JobContent, copies: Int = 1, source: String? = nil,
                        opensDrawer: Bool = false, idempotency: IdempotencyKey? = nil, submittedBy: String? = nil,
                        id: JobID? = nil, at date: Date = Date(), whenInserted: (@Sendable (JobID) -> Void)? = nil) async throws -> PrintJob {
        let name = name.trimmingCharacters(in: .whitespacesAndNewlines)
        try Self.validate(name: name, content: content, copies: copies)
        return try await writeGivingWork { db in
            // The marker holds the id, known only after the insert; a UUID
            // holds its unique place until then, inside this transaction.
            var record = JobRecord(name: name, role: role, content: content, copies: copies, at: date,
                                   marker: "kp-new-\(UUID().uuidString)")
            record.source = source
            record.opensDrawer = opensDrawer
            record.idempotencyKey = idempotency?.key
            record.requestSHA256 = idempotency?.requestSHA256
            record.submittedBy = submittedBy
            record.id = id?.rawValue
            try record.insert(db)
            record.marker = Self.newMarker(for: record.jobID)
            try record.update(db)
            whenInserted?(record.jobID)
            return try record.job()
        }
    }

    /// Takes the next job id for a job whose content comes later, so that
    /// no other job is given it; ``enqueue`` with `id:` uses it. An id
    /// taken and never used is skipped, as ids are never reused anyway.
    public func reserveJobID() async throws -> JobID {
        try await writeGivingWork { db in
            // The job table is AUTOINCREMENT: its next id is one past sqlite_sequence's count, which SQLite lets us move.
            let used = try Int64.fetchOne(db, sql: "SELECT seq FROM sqlite_sequence WHERE name = 'job'")
            let highest = max(used ?? 0, try Int64.fetchOne(db, sql: "SELECT MAX(id) FROM job") ?? 0)
            if used == nil {
                try db.execute(sql: "INSERT INTO sqlite_sequence (name, seq) VALUES ('job', ?)", arguments: [highest + 1])
            } else {
                try db.execute(sql: "UPDATE sqlite_sequence SET seq = ? WHERE name = 'job'", arguments: [highest + 1])
            }
            return JobID(highest + 1)
        }
    }

    /// The jobs in queue order (oldest first): the unfinished ones, or every
    /// job when `includeFinished`; of one role, or of all when `role` is nil.
    public func jobs(includeFinished: Bool = false, role: Role? = nil) async throws -> [PrintJob] {
        let (sql, arguments) = Self.jobsQuery(includeFinished: includeFinished, role: role)
        return try await database.read { db in
            try JobRecord.fetchAll(db, sql: sql, arguments: arguments).map { $0.listedJob() }
        }
    }

    /// The SQL of `jobs(includeFinished:role:)`.
    static func jobsQuery(includeFinished: Bool, role: Role?) -> (String, StatementArguments) {
        let (filter, arguments) = whereClause(includeFinished ? nil : "state IN \(unfinishedList)", role: role)
        return ("SELECT * FROM job" + filter + " ORDER BY id", arguments)
    }

    /// " WHERE ..." with only the conditions that apply (`condition`, the
    /// role, ids below `before`), or "" when none does. Never a condition
    /// switched off by a parameter (`?1 OR state IN ...`, `:before IS NULL OR
    /// id < :before`): those kept SQLite from the state index and from a seek
    /// to `before`, so every look for unfinished jobs read every job kept
    /// (5,000 by default, 10 MB with their data), and a page back every newer one.
    static func whereClause(_ condition: String?, role: Role?, before: JobID? = nil) -> (String, StatementArguments) {
        var conditions = condition.map { [$0] } ?? []
        var arguments: StatementArguments = []
        if let role {
            conditions.append("role = ?")
            arguments += [role.name]
        }
        if let before {
            conditions.append("id < ?")
            arguments += [before.rawValue]
        }
        return (conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND "), arguments)
    }

    /// The job queued from `source` at or after `date`, if any: whether a
    /// file claimed at `date` was already queued before an interruption.
    public func job(source: String, since date: Date) async throws -> PrintJob? {
        try await database.read { db in
            try JobRecord.fetchOne(db, sql: "SELECT * FROM job WHERE source = ? AND createdAt >= ? ORDER BY id DESC LIMIT 1",
                                   arguments: [source, StoredDate(date)])?.job()
        }
    }

    /// The job queued under an Idempotency-Key, with the hash of the request that queued it.
    public func job(idempotencyKey key: String) async throws -> (job: PrintJob, requestSHA256: String?)? {
        try await database.read { db in
            guard let record = try JobRecord.fetchOne(db, sql: "SELECT * FROM job WHERE idempotencyKey = ?", arguments: [key]) else {
                return nil
            }
            return (record.listedJob(), record.requestSHA256)
        }
    }

    /// The name of the API token that submitted job `id`, nil when no token
    /// did (a folder, a button, the command line, or a job older than the
    /// record); throws `jobNotFound` for no such job.
    public func submitter(of id: JobID) async throws -> String? {
        try await database.read { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT submittedBy FROM job WHERE id = ?", arguments: [id.rawValue]) else {
                throw StoreError.jobNotFound(id)
            }
            return row["submittedBy"]
        }
    }

    /// One job, finished or not.
    public func job(_ id: JobID) async throws -> PrintJob {
        try await database.read { db in try Self.fetchRecord(db, id).listedJob() }
    }

    /// An operator's cancel. A job no printer has (queued, or waiting before
    /// it was accepted by one) is canceled at once, and its claim dropped, so
    /// the spooler's next change to it fails and it is never sent. A job being
    /// sent or at a printer is only marked `cancelRequested`: the spooler
    /// cancels it there (Cancel-Job) and then finishes it as canceled.
    /// Returns the job as it now is; throws `jobFinished` if it had ended.
    @discardableResult
    public func requestCancel(_ id: JobID, at date: Date = Date()) async throws -> PrintJob {
        let job = try await writeGivingWork { db in
            var record = try Self.fetchRecord(db, id)
            let state = try record.jobState()
            guard !state.isTerminal || state == .held else { throw StoreError.jobFinished(id, state) }
            record.cancelRequested = true
            // A held job is at no printer the agent can ask: canceling it only sets it aside for good.
            if state == .held || ((state == .queued || state == .waiting) && record.printerJobId == nil) {
                record.state = JobState.canceled.rawValue
                record.completedAt = date
                record.nextAttemptAt = nil
                record.claimedBy = nil
                record.claimExpiresAt = nil
            }
            record.updatedAt = date
            try record.update(db)
            return try record.job()
        }
        announceProgress()
        return job
    }

    /// An operator's retry of a failed, aborted, canceled or held job: back to
    /// `queued`, to be sent again in its place in the queue (its id), with its
    /// attempts kept. It gets a new marker: the printer's record of the last
    /// delivery (ended, but still listed by Get-Jobs) must not be taken for this one.
    @discardableResult
    public func retry(_ id: JobID, at date: Date = Date()) async throws -> PrintJob {
        try await writeGivingWork { db in
            var record = try Self.fetchRecord(db, id)
            let state = try record.jobState()
            guard [.failed, .aborted, .canceled, .held].contains(state) else { throw StoreError.notRetryable(id, state) }
            record.state = JobState.queued.rawValue
            record.marker = Self.newMarker(for: id)
            record.cancelRequested = false
            record.completedAt = nil
            record.nextAttemptAt = nil
            record.printerJobId = nil
            record.stateReasons = "[]"
            record.impressionsCompleted = 0
            record.claimedBy = nil
            record.claimExpiresAt = nil
            record.updatedAt = date
            try record.update(db)
            return try record.job()
        }
    }

    /// The newest job of `role` (for a reprint button), or the newest that
    /// completed when `completedOnly`; nil if there is none.
    public func lastJob(role: Role, completedOnly: Bool = false) async throws -> PrintJob? {
        try await database.read { db in
            try JobRecord.fetchOne(db, sql: """
                SELECT * FROM job WHERE role = ?1 AND (NOT ?2 OR state = 'completed') ORDER BY id DESC LIMIT 1
                """, arguments: [role.name, completedOnly])?.listedJob()
        }
    }

    /// How many jobs are unfinished, of one role or of all.
    public func queueDepth(role: Role? = nil) async throws -> Int {
        try await database.read { db in
            try Int.fetchOne(db, sql: """
                SELECT COUNT(*) FROM job WHERE state IN \(Self.unfinishedList) AND (?1 IS NULL OR role = ?1)
                """, arguments: [role?.name]) ?? 0
        }
    }

    /// The roles that have unfinished jobs, without reading the jobs: what
    /// the spooler asks to find roles it does not serve yet.
    public func rolesWithUnfinishedJobs() async throws -> Set<Role> {
        try await database.read { db in
            let names = try String.fetchAll(db, sql: "SELECT DISTINCT role FROM job WHERE state IN \(Self.unfinishedList)")
            return Set(try names.map { try Role($0) })
        }
    }

    // MARK: - Shared by the job files

    /// `('queued', 'sending', ...)`: the unfinished states, for SQL.
    static let unfinishedList = "(" + JobState.unfinished.map { "'\($0.rawValue)'" }.joined(separator: ", ") + ")"

    static func fetchRecord(_ db: Database, _ id: JobID) throws -> JobRecord {
        guard let record = try JobRecord.fetch(db, id: id.rawValue) else { throw StoreError.jobNotFound(id) }
        return record
    }

    /// `kp-12-x7f0qa`: the id, for people, and six random base-36 characters,
    /// so that a job of an earlier database (ids start again at 1 when the
    /// file is recreated) never matches at a printer that still lists it.
    static func newMarker(for id: JobID) -> String {
        let alphabet = Array("0123456789abcdefghijklmnopqrstuvwxyz")
        let suffix = String((0..<6).map { _ in alphabet.randomElement()! })
        return "kp-\(id.rawValue)-\(suffix)"
    }

    private static func validate(name: String, content: JobContent, copies: Int) throws(StoreError) {
        guard !name.isEmpty else {
            throw StoreError.invalidJob("A job needs a name that says what it is, e.g. \"Receipt 4711, till 3\".")
        }
        if let problem = JobName.problem(name) {
            throw StoreError.invalidJob("The job was not queued: \(problem)")
        }
        guard copies >= 1 else {
            throw StoreError.invalidJob("\"\(name)\" asks for \(copies) copies: ask for 1 or more.")
        }
        switch content {
        case .template(let template, _) where template.isEmpty:
            throw StoreError.invalidJob("\"\(name)\" names no template: give the template's name.")
        case .document(let path, let format) where path.isEmpty || format.isEmpty:
            throw StoreError.invalidJob("\"\(name)\" needs both the document's path and its format (a MIME type).")
        case .unreadable(let kind):
            throw StoreError.invalidJob("\"\(name)\" has content of a kind this version cannot read (\(kind)); it cannot be queued.")
        default:
            break
        }
    }
}

/// An HTTP request's Idempotency-Key as the store keeps it: scoped by the
/// caller (two tokens may use the same key), with the request's SHA-256.
public struct IdempotencyKey: Sendable, Hashable {
    public var key: String
    public var requestSHA256: String

    public init(caller: String, key: String, requestSHA256: String) {
        self.key = caller + "\u{1F}" + key
        self.requestSHA256 = requestSHA256
    }
}
