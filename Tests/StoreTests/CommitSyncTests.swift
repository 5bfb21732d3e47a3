import Foundation
import GRDB
import PrintModel
import Testing
@testable import Store

/// Which of a job's commits are synced to disk: every one that must survive a
/// power cut (accepted, about to be sent, ended), but not a claim, the
/// printer's job id or what the printer said meanwhile, which the next synced
/// commit takes along and which are found again after a power cut.
@Suite struct CommitSyncTests {
    let receipt = try! Role("receipt")

    @Test func claimsTheSentMarkAndProgressAreNotSyncedOnTheirOwnTheJobsOtherChangesAre() async throws {
        let store = try KioskStore(path: temporaryStorePath())
        let job = try await store.enqueue(name: "Receipt 1", role: receipt, content: receiptContent(1))
        // The writer's statements in order: each commit is taken with the
        // synchronous level set last before it.
        let log = StatementLog()
        try await store.database.writeWithoutTransaction { db in db.trace { log.append("\($0)") } }
        _ = try #require(try await store.claimNext(role: receipt, owner: "A", lease: .seconds(30)))
        try await store.markSending(jobID: job.id, owner: "A", printer: counter)
        try await store.markSent(jobID: job.id, owner: "A", printerJobID: 7)
        try await store.renewClaim(jobID: job.id, owner: "A", lease: .seconds(30))
        try await store.recordProgress(jobID: job.id, owner: "A", reasons: ["job-printing"])
        let ended = try await store.finish(jobID: job.id, owner: "A", state: .completed)

        var level = "FULL"
        var commits: [String] = []
        for statement in log.statements {
            if statement.hasPrefix("PRAGMA synchronous = ") { level = String(statement.dropFirst(21)) }
            if statement.hasPrefix("COMMIT") { commits.append(level) }
        }
        #expect(commits == ["NORMAL", "FULL", "NORMAL", "NORMAL", "NORMAL", "FULL"])
        // The connection is left as every other commit needs it (2 = FULL).
        let after = try await store.database.writeWithoutTransaction { try Int.fetchOne($0, sql: "PRAGMA synchronous") }
        #expect(after == 2)
        // Unsynced is not unwritten: another connection reads what they recorded.
        let reopened = try KioskStore(path: store.path)
        let stored = try await reopened.job(job.id)
        #expect(stored.state == .completed && stored.printerJobID == 7 && ended.state == .completed)
        #expect(stored.stateReasons == ["job-printing"])
    }

    @Test func aWriteThatFailsUnsyncedLeavesTheNextCommitSynced() async throws {
        let store = try KioskStore(path: temporaryStorePath())
        let job = try await store.enqueue(name: "Receipt 1", role: receipt, content: receiptContent(1))
        // Not claimed by B: refused inside the unsynced transaction.
        await #expect(throws: StoreError.self) {
            try await store.recordProgress(jobID: job.id, owner: "B", reasons: [])
        }
        let after = try await store.database.writeWithoutTransaction { try Int.fetchOne($0, sql: "PRAGMA synchronous") }
        #expect(after == 2)
    }
}
