import Foundation
import GRDB
import PrintModel
@_spi(Testing) @testable import Store
import Testing

/// Purging finished jobs: by age, by count, never what is unfinished or
/// waits for an operator, never a role's last job; the documents it hands
/// back; and a file that stays the same size over rounds of jobs.
@Suite struct RetentionTests {
    let receipt = try! Role("receipt")
    let coupon = try! Role("coupon")
    let spool = "/var/lib/kioskprint/spool"
    let day: TimeInterval = 86_400

    /// A job taken through the spooler's steps and ended as `state` at `endedAt`.
    func finishedJob(_ store: KioskStore, _ role: Role, _ state: JobState = .completed, endedAt: Date,
                     content: JobContent? = nil) async throws -> PrintJob {
        let job = try await store.enqueue(name: "\(role) job", role: role, content: content ?? receiptContent(1), at: endedAt - 5)
        let claimed = try #require(try await store.claimNext(role: role, owner: "test", lease: .seconds(30), now: endedAt - 4))
        #expect(claimed.id == job.id)
        try await store.markSending(jobID: job.id, owner: "test", printer: counter, now: endedAt - 3)
        return try await store.finish(jobID: job.id, owner: "test", state: state, now: endedAt)
    }

    func ids(_ store: KioskStore) async throws -> [JobID] {
        try await store.jobs(includeFinished: true).map(\.id)
    }

    @Test func jobsThatEndedBeforeTheCutoffGoAndNewerOnesStay() async throws {
        let store = try KioskStore(path: temporaryStorePath())
        let old = try await finishedJob(store, receipt, endedAt: t0 - 40 * day)
        let failed = try await finishedJob(store, receipt, .failed, endedAt: t0 - 35 * day)
        let canceled = try await finishedJob(store, receipt, .canceled, endedAt: t0 - 31 * day)
        let recent = try await finishedJob(store, receipt, endedAt: t0 - 29 * day)
        let newest = try await finishedJob(store, receipt, endedAt: t0 - 1 * day)

        let purged = try await store.purgeFinishedJobs(PurgeRule(endedBefore: t0 - 30 * day), spoolFolder: spool)
        #expect(purged.jobs == 3)
        #expect(try await ids(store) == [recent.id, newest.id])
        _ = (old, failed, canceled)
        // Nothing more is past the limit: a second purge removes nothing.
        #expect(try await store.purgeFinishedJobs(PurgeRule(endedBefore: t0 - 30 * day), spoolFolder: spool).jobs == 0)
    }

    @Test func onlyTheNewestFinishedJobsAreKeptByCount() async throws {
        let store = try KioskStore(path: temporaryStorePath())
        try await store.insertJobs(1_200, role: "receipt", state: .completed, endedAt: t0)
        let kept = try await ids(store).suffix(250)
        // Small batches: the purge goes on until nothing is left to take.
        let purged = try await store.purgeFinishedJobs(PurgeRule(keepNewest: 250), spoolFolder: spool, batchSize: 100)
        #expect(purged.jobs == 950)
        #expect(try await ids(store) == Array(kept))
        // Either limit removes a job: the age takes the rest but the role's last job.
        let byBoth = try await store.purgeFinishedJobs(PurgeRule(endedBefore: t0 + 1, keepNewest: 250), spoolFolder: spool)
        #expect(byBoth.jobs == 249)
        #expect(try await ids(store) == [kept.last!])
    }

    @Test func unfinishedHeldAndSetAsideJobsAreNeverPurged() async throws {
        let store = try KioskStore(path: temporaryStorePath())
        let old = t0 - 400 * day
        try await store.insertJobs(2, role: "coupon", state: .completed, endedAt: old)
        var kept: [JobID] = []
        for state in [JobState.queued, .sending, .sent, .waiting, .held, .setAside] {
            let job = try await store.enqueue(name: "\(state)", role: receipt, content: receiptContent(1), at: old)
            try await store.forceState(job.id, state, at: old)
            kept.append(job.id)
        }
        let aborted = try await store.enqueue(name: "aborted", role: receipt, content: receiptContent(2), at: old)
        try await store.forceState(aborted.id, .aborted, at: old)
        let newest = try await store.enqueue(name: "last", role: receipt, content: receiptContent(3), at: old)
        kept.append(newest.id)

        let purged = try await store.purgeFinishedJobs(PurgeRule(endedBefore: t0, keepNewest: 0), spoolFolder: spool)
        // The aborted job and the older coupon go; the newest coupon is its role's last job.
        #expect(purged.jobs == 2)
        let left = try await store.jobs(includeFinished: true)
        #expect(left.filter { $0.role == receipt }.map(\.id) == kept)
        #expect(left.filter { $0.role == coupon }.count == 1)
    }

    @Test func eachRolesLastJobAndLastCompletedJobStayForAReprint() async throws {
        let store = try KioskStore(path: temporaryStorePath())
        let old = t0 - 100 * day
        let receipts = [try await finishedJob(store, receipt, endedAt: old), try await finishedJob(store, receipt, endedAt: old + 1)]
        let lastReceipt = try await finishedJob(store, receipt, .failed, endedAt: old + 2)
        let coupons = [try await finishedJob(store, coupon, endedAt: old + 3), try await finishedJob(store, coupon, .canceled, endedAt: old + 4)]
        let reprintPicksBefore = [try await store.lastJob(role: receipt), try await store.lastJob(role: receipt, completedOnly: true),
                                  try await store.lastJob(role: coupon), try await store.lastJob(role: coupon, completedOnly: true)]

        let purged = try await store.purgeFinishedJobs(PurgeRule(endedBefore: t0, keepNewest: 0), spoolFolder: spool)
        #expect(purged.jobs == 1)
        #expect(try await ids(store) == [receipts[1].id, lastReceipt.id, coupons[0].id, coupons[1].id])
        let reprintPicksAfter = [try await store.lastJob(role: receipt), try await store.lastJob(role: receipt, completedOnly: true),
                                 try await store.lastJob(role: coupon), try await store.lastJob(role: coupon, completedOnly: true)]
        #expect(reprintPicksAfter == reprintPicksBefore)
    }

    @Test func documentsAreHandedBackOnlyFromTheSpoolFolderAndOnlyWhenNoJobNamesThem() async throws {
        let store = try KioskStore(path: temporaryStorePath())
        let old = t0 - 100 * day
        func document(_ path: String) -> JobContent { .document(path: path, format: "pdf") }
        _ = try await finishedJob(store, receipt, endedAt: old, content: document("\(spool)/a1-menu.pdf"))
        _ = try await finishedJob(store, receipt, endedAt: old, content: document("/home/shop/menu.pdf"))
        _ = try await finishedJob(store, receipt, endedAt: old, content: document("\(spool)/../kioskprint.sqlite"))
        _ = try await finishedJob(store, receipt, endedAt: old, content: document("\(spool)/sub/b2-deep.pdf"))
        _ = try await finishedJob(store, receipt, endedAt: old, content: document("\(spool)/c3-shared.pdf"))
        // A reprint names its original's file; the file stays while the reprint does.
        _ = try await finishedJob(store, receipt, endedAt: t0, content: document("\(spool)/c3-shared.pdf"))
        _ = try await finishedJob(store, receipt, endedAt: t0, content: receiptContent(9))

        let dry = try await store.purgeFinishedJobs(PurgeRule(endedBefore: t0 - day), spoolFolder: spool + "/", dryRun: true)
        #expect(dry == PurgedJobs(jobs: 5, documents: ["\(spool)/a1-menu.pdf"]))
        #expect(try await store.jobCount() == 7)
        let purged = try await store.purgeFinishedJobs(PurgeRule(endedBefore: t0 - day), spoolFolder: spool)
        #expect(purged == dry)
        // Once the reprint goes too, its file is free.
        let rest = try await store.purgeFinishedJobs(PurgeRule(keepNewest: 0), spoolFolder: spool)
        #expect(rest == PurgedJobs(jobs: 1, documents: ["\(spool)/c3-shared.pdf"]))
    }

    @Test func theFileStaysTheSameSizeOverRoundsOfJobsAndPurges() async throws {
        let store = try KioskStore(path: temporaryStorePath())
        #expect(try await store.autoVacuumMode() == 2)
        var sizes: [Int64] = []
        for round in 0..<3 {
            try await store.insertJobs(3_000, role: "receipt", state: .completed, endedAt: t0 + Double(round), payload: 1_000)
            let before = try await store.checkpointedFileSize()
            let purged = try await store.purgeFinishedJobs(PurgeRule(keepNewest: 1_000), spoolFolder: spool)
            #expect(purged.jobs == (round == 0 ? 2_000 : 3_000))
            // The freed pages go back to the disk: the file shrinks, not only stops growing.
            #expect(try await store.reclaimFreePages() > 0)
            sizes.append(try await store.checkpointedFileSize())
            #expect(sizes[round] < before / 2, "before the purge \(before), after \(sizes[round])")
        }
        // 1,000 jobs of about 1.3 KB each: the file holds them, not what went before.
        #expect(sizes[0] < 3 * 1_048_576)
        #expect(sizes[2] <= sizes[0] + sizes[0] / 20, "database sizes after each round: \(sizes)")
        #expect(sizes[1] <= sizes[0] + sizes[0] / 20, "database sizes after each round: \(sizes)")
    }

    @Test func aFileTooLargeToConvertAtOpenIsConvertedByItsFirstPurge() async throws {
        let store = try KioskStore(path: temporaryStorePath(), convertAtOpenUpTo: 0)
        #expect(try await store.autoVacuumMode() == 0)
        try await store.insertJobs(2_000, role: "receipt", state: .completed, endedAt: t0, payload: 1_000)
        let before = try await store.checkpointedFileSize()
        #expect(try await store.purgeFinishedJobs(PurgeRule(keepNewest: 100), spoolFolder: spool).jobs == 1_900)
        #expect(try await store.reclaimFreePages() > 0)
        #expect(try await store.autoVacuumMode() == 2)
        let after = try await store.checkpointedFileSize()
        #expect(after < before / 4, "before \(before), after \(after)")
        #expect(try await store.jobCount() == 100)
    }

    @Test func aFileFromBeforeRetentionIsConvertedToIncrementalVacuumOnce() async throws {
        let path = temporaryStorePath()
        try KioskStore.prepareFile(at: path)
        do {
            let old = try DatabaseQueue(path: path)
            try await old.write { db in
                try db.execute(sql: "CREATE TABLE leftover (x TEXT)")
                for _ in 0..<500 { try db.execute(sql: "INSERT INTO leftover VALUES (hex(randomblob(500)))") }
                try db.execute(sql: "DROP TABLE leftover")
            }
            #expect(try await old.read { try Int.fetchOne($0, sql: "PRAGMA auto_vacuum") } == 0)
            #expect(try await old.read { try Int.fetchOne($0, sql: "PRAGMA freelist_count") ?? 0 } > 100)
        }
        let store = try KioskStore(path: path)
        #expect(try await store.autoVacuumMode() == 2)
        // The VACUUM that converted it also gave its free pages back.
        #expect(try await store.database.read { try Int.fetchOne($0, sql: "PRAGMA freelist_count") } == 0)
        #expect(try await store.reclaimFreePages() == 0)
    }
}
