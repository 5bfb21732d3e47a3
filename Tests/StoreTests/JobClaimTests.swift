import Foundation
import Testing
import PrintModel
@testable import Store

/// The spooler's side: claims, leases, order per role, state changes, recovery.
@Suite struct JobClaimTests {
    let receipt = try! Role("receipt")
    let coupon = try! Role("coupon")
    let lease = Duration.seconds(30)

    func enqueue(_ count: Int, _ role: Role, in store: KioskStore, from first: Int = 1) async throws -> [PrintJob] {
        var jobs: [PrintJob] = []
        for number in first ..< first + count {
            jobs.append(try await store.enqueue(name: "\(role) \(number)", role: role,
                                                content: receiptContent(number), at: t0))
        }
        return jobs
    }

    @Test func eachRoleGoesInOrderOneAtATimeAndRolesDoNotWaitForEachOther() async throws {
        let store = try KioskStore(path: temporaryStorePath())
        let receipts = try await enqueue(3, receipt, in: store)
        let coupons = try await enqueue(2, coupon, in: store)

        let head = try #require(try await store.claimNext(role: receipt, owner: "A", lease: lease, now: t0))
        #expect(head.id == receipts[0].id)
        #expect(head.claimedBy == "A" && head.claimExpiresAt == t0 + 30)
        // The receipt role is busy for everyone else, the coupon role is not.
        #expect(try await store.claimNext(role: receipt, owner: "B", lease: lease, now: t0) == nil)
        #expect(try await store.claimNext(role: coupon, owner: "B", lease: lease, now: t0)?.id == coupons[0].id)
        // Its holder asking again gets the same job, with a new lease.
        let again = try await store.claimNext(role: receipt, owner: "A", lease: lease, now: t0 + 10)
        #expect(again?.id == head.id && again?.claimExpiresAt == t0 + 40)

        try await store.finish(jobID: head.id, owner: "A", state: .completed, now: t0 + 11)
        #expect(try await store.claimNext(role: receipt, owner: "B", lease: lease, now: t0 + 12)?.id == receipts[1].id)
        #expect(try await store.queueDepth(role: receipt) == 2)
    }

    @Test func aRunOutLeaseIsTakenOverAndALiveOneIsNot() async throws {
        let store = try KioskStore(path: temporaryStorePath())
        let job = try await enqueue(1, receipt, in: store)[0]
        _ = try await store.claimNext(role: receipt, owner: "A", lease: lease, now: t0)
        try await store.markSending(jobID: job.id, owner: "A", printer: counter, now: t0 + 1)

        #expect(try await store.claimNext(role: receipt, owner: "B", lease: lease, now: t0 + 29) == nil)
        // A restarted process under A's name may recover its own job at once
        // (a one-second lease keeps the claim's end where it was, at t0 + 30).
        let recovered = try await store.claimNext(role: receipt, owner: "A", lease: .seconds(1), now: t0 + 29)
        #expect(recovered?.id == job.id && recovered?.state == .sending && recovered?.claimExpiresAt == t0 + 30)

        // A lapsed claim no one has taken is still A's...
        try await store.renewClaim(jobID: job.id, owner: "A", lease: lease, now: t0 + 31)
        #expect(try await store.claimNext(role: receipt, owner: "B", lease: lease, now: t0 + 32) == nil)
        // ...until B takes the job over, in `sending`: it needs recovery.
        let taken = try #require(try await store.claimNext(role: receipt, owner: "B", lease: lease, now: t0 + 61))
        #expect(taken.id == job.id && taken.state == .sending && taken.claimedBy == "B")
        #expect(try await store.claimNext(role: receipt, owner: "C", lease: lease, now: t0 + 62) == nil)

        await #expect(throws: StoreError.notClaimOwner(job: job.id, owner: "A", holder: "B")) {
            try await store.markSent(jobID: job.id, owner: "A", printerJobID: 3, now: t0 + 62)
        }
        #expect(try await store.markSent(jobID: job.id, owner: "B", printerJobID: 3, now: t0 + 62).state == .sent)
    }

    @Test func onlyTheHolderChangesAJob() async throws {
        let store = try KioskStore(path: temporaryStorePath())
        let job = try await enqueue(1, receipt, in: store)[0]
        let refusedToNobody = StoreError.notClaimOwner(job: job.id, owner: "A", holder: nil)
        await #expect(throws: refusedToNobody) {
            try await store.markSending(jobID: job.id, owner: "A", printer: counter, now: t0)
        }
        _ = try await store.claimNext(role: receipt, owner: "A", lease: lease, now: t0)
        let refused = StoreError.notClaimOwner(job: job.id, owner: "B", holder: "A")
        await #expect(throws: refused) { try await store.markSending(jobID: job.id, owner: "B", printer: counter) }
        await #expect(throws: refused) { try await store.markSent(jobID: job.id, owner: "B", printerJobID: 1) }
        await #expect(throws: refused) { try await store.recordProgress(jobID: job.id, owner: "B", reasons: []) }
        await #expect(throws: refused) {
            try await store.markWaiting(jobID: job.id, owner: "B", reason: "out of paper")
        }
        await #expect(throws: refused) {
            try await store.scheduleRetry(jobID: job.id, owner: "B", error: "unreachable", at: t0)
        }
        await #expect(throws: refused) { try await store.finish(jobID: job.id, owner: "B", state: .completed) }
        await #expect(throws: refused) { try await store.renewClaim(jobID: job.id, owner: "B", lease: lease) }
        await #expect(throws: refused) { try await store.releaseClaim(jobID: job.id, owner: "B") }
        await #expect {
            try await store.finish(jobID: job.id, owner: "B", state: .completed)
        } throws: { "\($0)".contains("A holds it now") }

        let unchanged = try await store.job(job.id)
        #expect(unchanged.state == .queued && unchanged.claimedBy == "A" && unchanged.updatedAt == t0)

        // Released, the next claimer may take it.
        try await store.releaseClaim(jobID: job.id, owner: "A")
        #expect(try await store.claimNext(role: receipt, owner: "B", lease: lease, now: t0)?.id == job.id)
    }

    @Test func aJobIsFollowedToTheEndWithItsProgress() async throws {
        let store = try KioskStore(path: temporaryStorePath())
        let job = try await store.enqueue(name: "Boarding pass LH 400", role: receipt, content: receiptContent(1),
                                          copies: 2, at: t0)
        _ = try await store.claimNext(role: receipt, owner: "A", lease: lease, now: t0)
        let sending = try await store.markSending(jobID: job.id, owner: "A", printer: counter,
                                                  cutLengths: [20_320, 8_255], now: t0 + 1)
        #expect(sending.state == .sending && sending.printer == counter)
        #expect(sending.pagesExpected == 2 && sending.impressionsExpected == 4 && sending.cutLengths == [20_320, 8_255])
        #expect(try await store.markSent(jobID: job.id, owner: "A", printerJobID: 17, now: t0 + 2).printerJobID == 17)

        let stopped = try await store.recordProgress(jobID: job.id, owner: "A", state: .waiting,
                                                     reasons: ["media-empty"], impressions: 1, now: t0 + 3)
        #expect(stopped.state == .waiting && stopped.stateReasons == ["media-empty"] && stopped.impressionsCompleted == 1)
        let going = try await store.recordProgress(jobID: job.id, owner: "A", state: .sent, reasons: [],
                                                   impressions: 3, now: t0 + 4)
        #expect(going.state == .sent && going.stateReasons.isEmpty && going.updatedAt == t0 + 4)

        await #expect { try await store.recordProgress(jobID: job.id, owner: "A", state: .completed, reasons: []) }
            throws: { "\($0)".contains("finish") }
        await #expect { try await store.finish(jobID: job.id, owner: "A", state: .sent) }
            throws: { "\($0)".contains("completed, failed, canceled or aborted") }

        let done = try await store.finish(jobID: job.id, owner: "A", state: .completed, now: t0 + 5)
        #expect(done.state == .completed && done.completedAt == t0 + 5 && done.claimedBy == nil)
        await #expect(throws: StoreError.jobFinished(job.id, .completed)) {
            try await store.markSent(jobID: job.id, owner: "A", printerJobID: 18)
        }
        try await store.releaseClaim(jobID: job.id, owner: "A")  // nothing to let go of: fine
        #expect(try await store.jobs().isEmpty)
    }

    /// The printer's last word and the end in one commit, as the spooler ends a followed job.
    @Test func aJobFinishesWithThePrintersLastWordInOneChange() async throws {
        let store = try KioskStore(path: temporaryStorePath())
        let job = try await store.enqueue(name: "Receipt 4711", role: receipt, content: receiptContent(1), copies: 2, at: t0)
        _ = try await store.claimNext(role: receipt, owner: "A", lease: lease, now: t0)
        _ = try await store.markSending(jobID: job.id, owner: "A", printer: counter, cutLengths: [17_355], now: t0 + 1)
        _ = try await store.markSent(jobID: job.id, owner: "A", printerJobID: 5, now: t0 + 2)

        let done = try await store.finish(jobID: job.id, owner: "A", state: .completed, stateReasons: ["cover-open"],
                                          impressions: 2, now: t0 + 3)
        #expect(done.state == .completed && done.completedAt == t0 + 3 && done.claimedBy == nil)
        #expect(done.stateReasons == ["cover-open"] && done.impressionsCompleted == 2 && done.updatedAt == t0 + 3)
        let stored = try await store.job(job.id)
        #expect(stored.state == .completed && stored.stateReasons == ["cover-open"] && stored.impressionsCompleted == 2)
    }

    @Test func aRetryWaitsItsTurnAndHoldsUpTheRole() async throws {
        let store = try KioskStore(path: temporaryStorePath())
        let jobs = try await enqueue(2, receipt, in: store)
        _ = try await store.claimNext(role: receipt, owner: "A", lease: lease, now: t0)
        let queued = try await store.scheduleRetry(jobID: jobs[0].id, owner: "A", error: "Counter TM-80 is unreachable",
                                                   at: t0 + 10, now: t0 + 1)
        #expect(queued.state == .queued && queued.attempts == 1 && queued.claimedBy == nil)
        #expect(queued.lastError == "Counter TM-80 is unreachable" && queued.nextAttemptAt == t0 + 10)

        // Receipts print in order: the second does not overtake the first.
        #expect(try await store.claimNext(role: receipt, owner: "B", lease: lease, now: t0 + 9) == nil)
        #expect(try await store.claimNext(role: receipt, owner: "B", lease: lease, now: t0 + 10)?.id == jobs[0].id)

        // Waiting keeps the claim; after its holder dies, the job is taken again when due.
        let waiting = try await store.markWaiting(jobID: jobs[0].id, owner: "B", reason: "Counter TM-80 is out of paper",
                                                  stateReasons: ["media-empty"], retryAt: t0 + 100, now: t0 + 11)
        #expect(waiting.state == .waiting && waiting.claimedBy == "B" && waiting.stateReasons == ["media-empty"])
        #expect(try await store.claimNext(role: receipt, owner: "C", lease: lease, now: t0 + 50) == nil)
        #expect(try await store.claimNext(role: receipt, owner: "C", lease: lease, now: t0 + 100)?.id == jobs[0].id)
    }

    @Test func aJobAtAPrinterIsResolvedBeforeAnOlderOneIsResent() async throws {
        let store = try KioskStore(path: temporaryStorePath())
        let jobs = try await enqueue(2, receipt, in: store)
        _ = try await store.claimNext(role: receipt, owner: "A", lease: lease, now: t0)
        try await store.finish(jobID: jobs[0].id, owner: "A", state: .failed, error: "bad data", now: t0)
        _ = try await store.claimNext(role: receipt, owner: "A", lease: lease, now: t0)
        try await store.markSending(jobID: jobs[1].id, owner: "A", printer: counter, now: t0)
        try await store.markSent(jobID: jobs[1].id, owner: "A", printerJobID: 5, now: t0)
        try await store.retry(jobs[0].id, at: t0 + 1)

        // The retried job is older, but the role's job at the printer is held.
        #expect(try await store.claimNext(role: receipt, owner: "B", lease: lease, now: t0 + 2) == nil)
        // A dies: B recovers the job at the printer first.
        let recovered = try await store.claimNext(role: receipt, owner: "B", lease: lease, now: t0 + 31)
        #expect(recovered?.id == jobs[1].id && recovered?.state == .sent && recovered?.printerJobID == 5)
        try await store.finish(jobID: jobs[1].id, owner: "B", state: .completed, now: t0 + 32)
        #expect(try await store.claimNext(role: receipt, owner: "B", lease: lease, now: t0 + 33)?.id == jobs[0].id)
    }

    @Test func aRetriedOlderJobWaitsForTheJobInHand() async throws {
        let store = try KioskStore(path: temporaryStorePath())
        let jobs = try await enqueue(2, receipt, in: store)
        _ = try await store.claimNext(role: receipt, owner: "A", lease: lease, now: t0)
        try await store.finish(jobID: jobs[0].id, owner: "A", state: .aborted, now: t0)
        // A holds the second job, still queued (being rendered), when an operator retries the first.
        #expect(try await store.claimNext(role: receipt, owner: "A", lease: lease, now: t0)?.id == jobs[1].id)
        try await store.retry(jobs[0].id, at: t0 + 1)
        #expect(try await store.claimNext(role: receipt, owner: "B", lease: lease, now: t0 + 2) == nil)
        try await store.finish(jobID: jobs[1].id, owner: "A", state: .completed, now: t0 + 3)
        #expect(try await store.claimNext(role: receipt, owner: "B", lease: lease, now: t0 + 4)?.id == jobs[0].id)
    }

    /// The agent's idle loop looks for work every `look-every`, each role
    /// after every job: an empty look must write nothing (no WAL frames, no
    /// sync, no write lock held against another process's commit).
    @Test func lookingForWorkInAnEmptyQueueWritesNothing() async throws {
        let path = temporaryStorePath()
        let store = try KioskStore(path: path)
        let job = try #require(try await enqueue(1, receipt, in: store).first)
        _ = try await store.claimNext(role: receipt, owner: "A", lease: lease, now: t0)
        _ = try await store.finish(jobID: job.id, owner: "A", state: .completed, now: t0)
        /// Size and modification time, to the nanosecond, of the database and its WAL.
        func written() -> [String] {
            [path, path + "-wal"].map { file in
                var info = stat()
                guard stat(file, &info) == 0 else { return "\(file) missing" }
                return "\(info.st_size) \(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)"
            }
        }
        let before = written()
        #expect(!before[1].hasSuffix("missing"), "the store runs in WAL mode")
        for role in [receipt, coupon] {
            #expect(try await store.claimNext(role: role, owner: "A", lease: lease, now: t0) == nil)
        }
        #expect(written() == before)
    }

    /// A role with nothing queued, woken by another role's commits, looks
    /// with one SELECT: no transaction (no write lock held against the jobs
    /// being printed), none of a claim's statements.
    @Test func aRoleWithNothingQueuedLooksWithOneSelectAndNoTransaction() async throws {
        let store = try KioskStore(path: temporaryStorePath())
        let queued = try #require(try await enqueue(1, receipt, in: store).first)
        let log = StatementLog()
        try await store.database.writeWithoutTransaction { db in db.trace { log.append("\($0)") } }

        #expect(try await store.claimNext(role: coupon, owner: "A", lease: lease, now: t0) == nil)
        #expect(log.statements.count == 1 && log.statements.first?.hasPrefix("SELECT EXISTS") == true,
                "\(log.statements)")
        let claimed = try await store.claimNext(role: receipt, owner: "A", lease: lease, now: t0)
        #expect(claimed?.id == queued.id)
        #expect(log.statements.contains { $0.hasPrefix("BEGIN IMMEDIATE") })
        #expect(log.statements.contains { $0.hasPrefix("UPDATE job SET claimedBy") })
    }

    @Test func theRolesWithUnfinishedJobsLeaveOutRolesWhoseJobsAllEnded() async throws {
        let store = try KioskStore(path: temporaryStorePath())
        #expect(try await store.rolesWithUnfinishedJobs().isEmpty)
        _ = try await enqueue(2, receipt, in: store)
        let coupon = try #require(try await enqueue(1, self.coupon, in: store).first)
        #expect(try await store.rolesWithUnfinishedJobs() == [receipt, self.coupon])
        _ = try await store.claimNext(role: self.coupon, owner: "A", lease: lease, now: t0)
        _ = try await store.finish(jobID: coupon.id, owner: "A", state: .completed, now: t0)
        #expect(try await store.rolesWithUnfinishedJobs() == [receipt])
    }

    @Test func aLeaseMustBeLongerThanZero() async throws {
        let store = try KioskStore(path: temporaryStorePath())
        await #expect { try await store.claimNext(role: receipt, owner: "A", lease: .zero) }
            throws: { "\($0)".contains("longer than zero") }
    }

    /// Two stores on one file (two connections, as two processes would have)
    /// and eight claimers over ten roles: every job is taken exactly once, no
    /// role ever has two jobs in flight, and each role's jobs go in order.
    @Test(.timeLimit(.minutes(2)))
    func racingClaimersNeverShareAJob() async throws {
        let path = temporaryStorePath()
        let stores = [try KioskStore(path: path), try KioskStore(path: path)]
        let roles = try (0..<10).map { try Role("role-\($0)") }
        var expected: [String: [JobID]] = [:]
        for number in 0..<100 {
            let role = roles[number % roles.count]
            let job = try await stores[number % 2].enqueue(name: "Job \(number)", role: role, content: receiptContent(number))
            expected[role.name, default: []].append(job.id)
        }

        let ledger = ClaimLedger()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for worker in 0..<8 {
                let store = stores[worker % 2]
                let owner = "worker-\(worker)"
                group.addTask {
                    while true {
                        let seen = await ledger.generation
                        var tookOne = false
                        for role in roles {
                            guard let job = try await store.claimNext(role: role, owner: owner, lease: .seconds(3600))
                            else { continue }
                            tookOne = true
                            await ledger.claimed(job, by: owner)
                            await ledger.finishing(job)
                            try await store.finish(jobID: job.id, owner: owner, state: .completed)
                            await ledger.finished()
                        }
                        if tookOne { continue }
                        if try await store.queueDepth() == 0 { break }
                        // Every role is busy: wait for a job to finish rather than spin.
                        await ledger.waitForChange(after: seen)
                    }
                    await ledger.finished()  // wakes the others to see the empty queue
                }
            }
            try await group.waitForAll()
        }

        let claims = await ledger.claims
        #expect(claims.count == 100)
        #expect(claims.values.allSatisfy { $0 == 1 })
        #expect(await ledger.violations.isEmpty)
        #expect(await ledger.orderByRole == expected)
        #expect(try await stores[0].queueDepth() == 0)
        #expect(Set(await ledger.owners).count > 1)  // both stores took part, not one claimer alone
    }
}

/// What the racing claimers did, checked as it happens.
actor ClaimLedger {
    private(set) var claims: [JobID: Int] = [:]
    private(set) var orderByRole: [String: [JobID]] = [:]
    private(set) var violations: [String] = []
    private(set) var owners: [String] = []
    private(set) var generation = 0
    private var inFlight: [String: (JobID, String)] = [:]
    private var waiters: [CheckedContinuation<Void, Never>] = []

    func claimed(_ job: PrintJob, by owner: String) {
        claims[job.id, default: 0] += 1
        if let (other, holder) = inFlight[job.role.name] {
            violations.append("\(owner) took job \(job.id) while \(holder) held job \(other) of \(job.role)")
        }
        inFlight[job.role.name] = (job.id, owner)
        orderByRole[job.role.name, default: []].append(job.id)
        owners.append(owner)
    }

    /// Called before the job's finish is committed, so a claimer of the role's
    /// next job (after that commit) never finds it still in flight here.
    func finishing(_ job: PrintJob) {
        inFlight[job.role.name] = nil
    }

    func finished() {
        generation += 1
        let woken = waiters
        waiters = []
        for waiter in woken { waiter.resume() }
    }

    /// Returns once a job has finished after `seen`.
    func waitForChange(after seen: Int) async {
        guard generation == seen else { return }
        await withCheckedContinuation { waiters.append($0) }
    }
}
