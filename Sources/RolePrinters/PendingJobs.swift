import Foundation
import PrintModel

/// Jobs made by Create-Job whose document has not come yet. They live in
/// memory only: until its document arrives a job has nothing to print, and
/// one left longer than `multiple-operation-time-out` is dropped (RFC 8011
/// §4.2.4; PWG 5100.7's abort-job action). A restart drops them too, and
/// the client's Send-Document is then answered not-found.
actor PendingJobs {
    struct Pending: Sendable {
        var id: JobID
        var role: Role
        var ticket: JobTicket
        var user: String
        var createdAt: Date
        /// A document sent with last-document false, waiting for Close-Job or the last Send-Document.
        var document: Data?
    }

    /// Most jobs waiting for their document at once, over every role.
    static let limit = 64
    static let timeout: TimeInterval = 60

    private var jobs: [JobID: Pending] = [:]

    func add(_ pending: Pending) -> Bool {
        dropExpired()
        guard jobs.count < Self.limit else { return false }
        jobs[pending.id] = pending
        return true
    }

    func find(_ id: JobID, role: Role) -> Pending? {
        dropExpired()
        return jobs[id].flatMap { $0.role == role ? $0 : nil }
    }

    func update(_ pending: Pending) { jobs[pending.id] = pending }

    @discardableResult
    func remove(_ id: JobID) -> Pending? { jobs.removeValue(forKey: id) }

    func all(role: Role) -> [Pending] {
        dropExpired()
        return jobs.values.filter { $0.role == role }.sorted { $0.id < $1.id }
    }

    private func dropExpired(now: Date = Date()) {
        jobs = jobs.filter { now.timeIntervalSince($0.value.createdAt) < Self.timeout }
    }
}
