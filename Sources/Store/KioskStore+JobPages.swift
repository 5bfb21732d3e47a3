import Foundation
import GRDB
public import PrintModel

/// Reading the job table a page at a time: an operator's list and `status`
/// ask for the newest few and how many there are, never for every job the
/// box has kept (20,000 by default, and as many as a purge leaves).
extension KioskStore {
    /// Which jobs a page holds.
    public enum JobFilter: Sendable, Hashable {
        /// Queued, sending, sent or waiting.
        case unfinished
        /// Every job, finished or not.
        case all
        /// Jobs in these states only.
        case states(Set<JobState>)

        /// The condition, in SQL. The states are the enum's own keywords, never outside text.
        var sql: String {
            switch self {
            case .unfinished: "state IN \(KioskStore.unfinishedList)"
            case .all: "1"
            case .states(let states):
                states.isEmpty ? "0" : "state IN (" + states.map { "'\($0.rawValue)'" }.sorted().joined(separator: ", ") + ")"
            }
        }
    }

    /// At most `limit` jobs matching `filter` (of `role` when given), with ids
    /// below `before` when given: the newest of them, returned oldest first
    /// as lists show them. Page back by passing the first id as `before`.
    public func jobs(_ filter: JobFilter, role: Role? = nil, limit: Int, before: JobID? = nil) async throws -> [PrintJob] {
        let (sql, arguments) = Self.pageQuery(filter, role: role, limit: limit, before: before)
        return try await database.read { db in
            try JobRecord.fetchAll(db, sql: sql, arguments: arguments).map { $0.listedJob() }.reversed()
        }
    }

    /// The SQL of a page (`whereClause` says why only the conditions that apply).
    static func pageQuery(_ filter: JobFilter, role: Role?, limit: Int, before: JobID?) -> (String, StatementArguments) {
        let (clause, arguments) = whereClause(filter.sql, role: role, before: before)
        return ("SELECT * FROM job" + clause + " ORDER BY id DESC LIMIT ?", arguments + [max(0, limit)])
    }

    /// How many jobs match `filter`, by role name.
    public func jobCounts(_ filter: JobFilter) async throws -> [String: Int] {
        try await database.read { db in
            let rows = try Row.fetchAll(db, sql: "SELECT role, COUNT(*) AS n FROM job WHERE \(filter.sql) GROUP BY role")
            return Dictionary(uniqueKeysWithValues: rows.map { ($0["role"] as String, $0["n"] as Int) })
        }
    }
}
