import Foundation
import GRDB
import Testing
import PrintModel
@testable import Store

/// A fixed clock: whole seconds, so dates read back from SQLite (milliseconds) compare equal.
let t0 = Date(timeIntervalSince1970: 1_800_000_000)

let counter = JobPrinter(id: 1, name: "Counter TM-80", uri: "ipp://counter/ipp/print")

func receiptContent(_ number: Int) -> JobContent {
    .template(name: "receipt", dataJSON: #"{"number": \#(number)}"#)
}

/// Accepting, listing, cancelling and retrying jobs; the file on disk.
@Suite struct JobQueueTests {
    let receipt = try! Role("receipt")
    let coupon = try! Role("coupon")

    /// Issue 14: the store is the last line: a name that would cut or push off the marker is never stored.
    @Test func aNameThatWouldLoseTheMarkerIsNotQueued() async throws {
        let store = try KioskStore(path: temporaryStorePath())
        for name in ["Receipt\u{0}4711", String(repeating: "x", count: 239)] {
            await #expect {
                try await store.enqueue(name: name, role: receipt, content: receiptContent(1))
            } throws: { error in
                "\(error)".contains("The job was not queued: the job name")
            }
        }
        #expect(try await store.jobs(includeFinished: true).isEmpty)
    }

    /// The spooler looks for unfinished jobs before every delivery from a command: through
    /// the state index, not by reading every job kept (a day's 5,000, with their data).
    @Test func unfinishedJobsAreListedThroughTheStateIndex() async throws {
        let store = try KioskStore(path: temporaryStorePath())
        let done = try await store.enqueue(name: "done", role: receipt, content: receiptContent(1))
        let open = try await store.enqueue(name: "open", role: receipt, content: receiptContent(2))
        let other = try await store.enqueue(name: "other", role: coupon, content: receiptContent(3))
        _ = try await store.claimNext(role: receipt, owner: "A", lease: .seconds(30))
        try await store.finish(jobID: done.id, owner: "A", state: .completed)

        #expect(try await store.jobs().map(\.id) == [open.id, other.id])
        #expect(try await store.jobs(role: coupon).map(\.id) == [other.id])
        #expect(try await store.jobs(includeFinished: true).map(\.id) == [done.id, open.id, other.id])
        #expect(try await store.jobs(includeFinished: true, role: receipt).map(\.id) == [done.id, open.id])
        for role in [nil, receipt] {
            let (sql, arguments) = KioskStore.jobsQuery(includeFinished: false, role: role)
            let plan = try await store.database.read { db in
                try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql, arguments: arguments).map { $0["detail"] as String }
            }
            #expect(plan.contains { $0.contains("USING INDEX") }, "\(plan)")
            #expect(!plan.contains { $0.hasPrefix("SCAN job") }, "\(plan)")
        }
    }

    /// A page back (`jobs list --before`, `GET /v1/jobs?before=`) seeks to its id instead of
    /// reading every newer job first.
    @Test func aPageBackSeeksToItsFirstID() async throws {
        let store = try KioskStore(path: temporaryStorePath())
        var ids: [JobID] = []
        for number in 1...5 { ids.append(try await store.enqueue(name: "r\(number)", role: receipt, content: receiptContent(number)).id) }
        #expect(try await store.jobs(.all, limit: 2, before: ids[3]).map(\.id) == [ids[1], ids[2]])
        #expect(try await store.jobs(.unfinished, role: receipt, limit: 10, before: ids[1]).map(\.id) == [ids[0]])
        #expect(try await store.jobs(.all, role: coupon, limit: 10).isEmpty)
        let (sql, arguments) = KioskStore.pageQuery(.all, role: nil, limit: 2, before: ids[3])
        let plan = try await store.database.read { db in
            try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql, arguments: arguments).map { $0["detail"] as String }
        }
        #expect(plan.contains { $0.contains("rowid<?") }, "\(plan)")
    }

    @Test func anAcceptedJobIsQueuedWithItsMarkerAndSurvivesReopening() async throws {
        let store = try KioskStore(path: temporaryStorePath())
        let job = try await store.enqueue(name: "  Receipt 4711, till 3 ", role: receipt, content: receiptContent(4711),
                                          copies: 2, at: t0)
        #expect(job.state == .queued)
        #expect(job.name == "Receipt 4711, till 3")
        #expect(job.copies == 2)
        #expect(job.attempts == 0 && !job.cancelRequested && job.claimedBy == nil)
        #expect(job.createdAt == t0 && job.updatedAt == t0)
        #expect(job.marker.wholeMatch(of: /kp-\d+-[0-9a-z]{6}/) != nil)
        #expect(job.marker.hasPrefix("kp-\(job.id)-"))

        let document = try await store.enqueue(name: "Menu", role: coupon,
                                               content: .document(path: "/var/spool/kp/menu.pdf", format: "application/pdf"),
                                               at: t0)
        #expect(document.marker != job.marker)

        // A new store on the file (as after a restart) has both, exactly as accepted.
        let reopened = try KioskStore(path: store.path)
        #expect(try await reopened.job(job.id) == job)
        #expect(try await reopened.job(document.id) == document)
        #expect(try await reopened.jobs().map(\.id) == [job.id, document.id])
        #expect(try await reopened.queueDepth() == 2)
        #expect(try await reopened.queueDepth(role: coupon) == 1)
    }

    @Test func everyCommitIsSyncedToDisk() async throws {
        let store = try KioskStore(path: temporaryStorePath())
        // The writer makes every commit, so its setting is the one that counts (2 = FULL).
        let writer = try await store.database.writeWithoutTransaction { try Int.fetchOne($0, sql: "PRAGMA synchronous") }
        #expect(writer == 2)
        let reopened = try KioskStore(path: store.path)
        let again = try await reopened.database.writeWithoutTransaction { try Int.fetchOne($0, sql: "PRAGMA synchronous") }
        #expect(again == 2)
    }

    @Test func aDatabaseFromBeforeJobsIsUpgradedInPlace() async throws {
        let path = temporaryStorePath()
        try KioskStore.prepareFile(at: path)
        let old = try DatabasePool(path: path)
        try KioskStore.migrator.migrate(old, upTo: "v1-printers-and-roles")
        try await old.write { db in
            try db.execute(sql: """
                INSERT INTO printer (uri, name, capabilities, addedAt, contactedAt)
                VALUES ('ipp://old/ipp/print', 'Old', '{}', '2025-01-01 00:00:00.000', '2025-01-01 00:00:00.000')
                """)
        }
        try old.close()

        let store = try KioskStore(path: path)
        let applied = try await store.database.read { try KioskStore.migrator.appliedIdentifiers($0) }
        #expect(applied.contains("v2-jobs"))
        #expect(try await store.database.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM printer") } == 1)
        _ = try await store.enqueue(name: "First job", role: receipt, content: receiptContent(1))
        #expect(try await store.queueDepth() == 1)
    }

    @Test func aJobWithoutANameOrCopiesIsRefusedWithTheFix() async throws {
        let store = try KioskStore(path: temporaryStorePath())
        await #expect {
            try await store.enqueue(name: " ", role: receipt, content: receiptContent(1))
        } throws: { "\($0)".contains("Receipt 4711, till 3") }
        await #expect {
            try await store.enqueue(name: "Receipt 1", role: receipt, content: receiptContent(1), copies: 0)
        } throws: { "\($0)".contains("1 or more") }
        await #expect {
            try await store.enqueue(name: "Menu", role: receipt, content: .document(path: "", format: "application/pdf"))
        } throws: { "\($0)".contains("path") }
        #expect(try await store.queueDepth() == 0)
        await #expect(throws: StoreError.jobNotFound(42)) { try await store.job(42) }
    }

    @Test func cancellingAQueuedJobEndsItAtOnce() async throws {
        let store = try KioskStore(path: temporaryStorePath())
        let first = try await store.enqueue(name: "Receipt 1", role: receipt, content: receiptContent(1), at: t0)
        let second = try await store.enqueue(name: "Receipt 2", role: receipt, content: receiptContent(2), at: t0)

        let canceled = try await store.requestCancel(first.id, at: t0 + 5)
        #expect(canceled.state == .canceled)
        #expect(canceled.cancelRequested)
        #expect(canceled.completedAt == t0 + 5)
        #expect(try await store.jobs().map(\.id) == [second.id])
        #expect(try await store.jobs(includeFinished: true).map(\.id) == [first.id, second.id])
        // The spooler never sees it: the next job is the second.
        #expect(try await store.claimNext(role: receipt, owner: "A", lease: .seconds(60), now: t0 + 6)?.id == second.id)
        await #expect(throws: StoreError.jobFinished(first.id, .canceled)) {
            try await store.requestCancel(first.id)
        }
    }

    @Test func cancellingAJobTheSpoolerIsPreparingStopsItBeforeItIsSent() async throws {
        let store = try KioskStore(path: temporaryStorePath())
        let job = try await store.enqueue(name: "Receipt 1", role: receipt, content: receiptContent(1), at: t0)
        _ = try await store.claimNext(role: receipt, owner: "A", lease: .seconds(60), now: t0)
        #expect(try await store.requestCancel(job.id, at: t0 + 1).state == .canceled)
        await #expect(throws: StoreError.jobFinished(job.id, .canceled)) {
            try await store.markSending(jobID: job.id, owner: "A", printer: counter, now: t0 + 2)
        }
    }

    @Test func cancellingASentJobIsLeftToTheSpoolerWhoLearnsOfIt() async throws {
        let store = try KioskStore(path: temporaryStorePath())
        let job = try await store.enqueue(name: "Receipt 1", role: receipt, content: receiptContent(1), at: t0)
        _ = try await store.claimNext(role: receipt, owner: "A", lease: .seconds(60), now: t0)
        try await store.markSending(jobID: job.id, owner: "A", printer: counter, cutLengths: [12_000], now: t0)
        try await store.markSent(jobID: job.id, owner: "A", printerJobID: 7, now: t0 + 1)

        let requested = try await store.requestCancel(job.id, at: t0 + 2)
        #expect(requested.state == .sent)
        #expect(requested.cancelRequested)
        #expect(requested.claimedBy == "A")
        // Renewing while following the job brings the request to the spooler.
        #expect(try await store.renewClaim(jobID: job.id, owner: "A", lease: .seconds(60), now: t0 + 3).cancelRequested)
        let ended = try await store.finish(jobID: job.id, owner: "A", state: .canceled, now: t0 + 4)
        #expect(ended.state == .canceled && ended.claimedBy == nil && ended.completedAt == t0 + 4)
    }

    @Test func retryPutsAFailedJobBackWithANewMarkerAndItsAttempts() async throws {
        let store = try KioskStore(path: temporaryStorePath())
        let job = try await store.enqueue(name: "Receipt 1", role: receipt, content: receiptContent(1), at: t0)
        _ = try await store.claimNext(role: receipt, owner: "A", lease: .seconds(60), now: t0)
        try await store.scheduleRetry(jobID: job.id, owner: "A", error: "Counter TM-80 did not answer", at: t0 + 1, now: t0)
        _ = try await store.claimNext(role: receipt, owner: "A", lease: .seconds(60), now: t0 + 1)
        try await store.markSending(jobID: job.id, owner: "A", printer: counter, now: t0 + 1)
        let failed = try await store.finish(jobID: job.id, owner: "A", state: .failed,
                                            error: "The printer refused the document (client-error-document-format-error)",
                                            now: t0 + 2)
        #expect(failed.attempts == 1)
        #expect(try await store.queueDepth() == 0)

        let again = try await store.retry(job.id, at: t0 + 3)
        #expect(try await store.job(job.id) == again)
        #expect(again.state == .queued)
        #expect(again.attempts == 1)
        #expect(again.marker != job.marker && again.marker.hasPrefix("kp-\(job.id)-"))
        #expect(again.completedAt == nil && again.printerJobID == nil && !again.cancelRequested)
        // Once queued it is on its way again, not retryable.
        await #expect(throws: StoreError.notRetryable(job.id, .queued)) { try await store.retry(job.id) }
        #expect(try await store.claimNext(role: receipt, owner: "B", lease: .seconds(60), now: t0 + 4)?.id == job.id)
        try await store.finish(jobID: job.id, owner: "B", state: .completed, now: t0 + 5)
        await #expect(throws: StoreError.notRetryable(job.id, .completed)) { try await store.retry(job.id) }
    }

    @Test func theLastJobOfARoleIsThereForAReprint() async throws {
        let store = try KioskStore(path: temporaryStorePath())
        #expect(try await store.lastJob(role: receipt) == nil)
        let first = try await store.enqueue(name: "Receipt 1", role: receipt, content: receiptContent(1), at: t0)
        _ = try await store.enqueue(name: "Coupon 1", role: coupon, content: receiptContent(9), at: t0)
        _ = try await store.claimNext(role: receipt, owner: "A", lease: .seconds(60), now: t0)
        try await store.finish(jobID: first.id, owner: "A", state: .completed, now: t0)
        let second = try await store.enqueue(name: "Receipt 2", role: receipt, content: receiptContent(2), at: t0)
        #expect(try await store.lastJob(role: receipt)?.id == second.id)
        #expect(try await store.lastJob(role: receipt, completedOnly: true)?.id == first.id)
    }
}
