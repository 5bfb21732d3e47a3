import Foundation
import Testing
import PrintModel
@testable import Store

/// The database's wake file: touched after each commit that gives the
/// spooler work, left alone by the spooler's own claims, marks and finishes
/// (which used to wake the agent through the WAL, page by page).
@Suite struct WakeFileTests {
    let receipt = try! Role("receipt")

    /// Sets the wake file's modification time to a fixed past second, so a
    /// ring shows as a change whatever the clock's granularity.
    func setAside(_ path: String) throws {
        var times = [timespec(tv_sec: 1_000_000, tv_nsec: 0), timespec(tv_sec: 1_000_000, tv_nsec: 0)]
        try #require(utimensat(AT_FDCWD, path, &times, 0) == 0, "the wake file \(path) exists")
    }

    func rang(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mtim.tv_sec != 1_000_000
    }

    @Test func queueingAJobRingsAndTheSpoolersOwnChangesDoNot() async throws {
        let store = try KioskStore(path: temporaryStorePath())
        let wake = store.wakeFilePath
        #expect(wake == store.path + "-wake")
        #expect(!FileManager.default.fileExists(atPath: wake), "nothing gave work yet")

        let job = try await store.enqueue(name: "Receipt 1", role: receipt, content: receiptContent(1), at: t0)
        #expect(rang(wake), "the first ring creates the file")
        var info = stat()
        #expect(stat(wake, &info) == 0 && info.st_mode & 0o777 == 0o600)

        try setAside(wake)
        _ = try #require(try await store.claimNext(role: receipt, owner: "A", lease: .seconds(30), now: t0))
        try await store.markSending(jobID: job.id, owner: "A", printer: counter, now: t0)
        _ = try await store.markSent(jobID: job.id, owner: "A", printerJobID: 7, now: t0)
        _ = try await store.finish(jobID: job.id, owner: "A", state: .failed, error: "out of paper", now: t0)
        #expect(try await store.claimNext(role: receipt, owner: "A", lease: .seconds(30), now: t0) == nil)
        #expect(!rang(wake), "the spooler's own commits and an empty look leave the wake file alone")

        _ = try await store.retry(job.id)
        #expect(rang(wake), "a retry gives the spooler work again")
    }

    @Test func aHeldJobsChangesTouchTheProgressFileAndARenewalDoesNot() async throws {
        let store = try KioskStore(path: temporaryStorePath())
        let progress = store.progressFilePath
        #expect(progress == store.path + "-progress")
        let job = try await store.enqueue(name: "Receipt 1", role: receipt, content: receiptContent(1), at: t0)
        _ = try #require(try await store.claimNext(role: receipt, owner: "A", lease: .seconds(30), now: t0))
        #expect(!FileManager.default.fileExists(atPath: progress), "queueing and claiming change nothing a follower shows")

        try await store.markSending(jobID: job.id, owner: "A", printer: counter, now: t0)
        #expect(rang(progress))
        try setAside(progress)
        _ = try await store.renewClaim(jobID: job.id, owner: "A", lease: .seconds(30), now: t0)
        #expect(!rang(progress), "a renewal changes nothing a follower shows")
        _ = try await store.finish(jobID: job.id, owner: "A", state: .completed, now: t0)
        #expect(rang(progress))

        let other = try await store.enqueue(name: "Receipt 2", role: receipt, content: receiptContent(2), at: t0)
        try setAside(progress)
        try await store.requestCancel(other.id)
        #expect(rang(progress), "an operator's cancel is progress too")
    }

    @Test func aWriteThatFailsDoesNotRing() async throws {
        let store = try KioskStore(path: temporaryStorePath())
        let job = try await store.enqueue(name: "Receipt 1", role: receipt, content: receiptContent(1), at: t0)
        try setAside(store.wakeFilePath)
        // Queued, not ended: a retry is refused and nothing is committed.
        await #expect(throws: StoreError.self) { try await store.retry(job.id) }
        #expect(!rang(store.wakeFilePath))
    }
}
