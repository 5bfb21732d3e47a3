public import PrintModel
public import Store
import Foundation
import Synchronization
import Timers

/// The queue's engine: for each role, the oldest job is taken (claimed in the
/// database, so no other process sends it), drawn for the role's printer,
/// sent and followed to its end; then the next. Roles are served in
/// parallel, each one job at a time: first in, first out.
///
/// ```swift
/// let spooler = Spooler(store: store, preparer: DocumentPreparer(catalog: catalog)) { print($0) }
/// try await spooler.run()                       // the agent: until cancelled
/// let job = try await spooler.deliver(jobID)    // `print --wait` with no agent running
/// ```
///
/// Structured: `run` owns a task per role and returns when cancelled; a job
/// interrupted by cancellation keeps its claim until the lease lapses and is
/// then found again by its marker, so it is neither lost nor sent twice.
public struct Spooler: Sendable {
    public let store: KioskStore
    public let preparer: DocumentPreparer
    public let configuration: SpoolerConfiguration
    /// How the spooler reaches each printer (IPP, or a raw language).
    public let channels: PrinterChannels
    /// Finds a saved printer that cannot be reached at a new address, by
    /// its DNS-SD UUID (the agent gives Setup's `PrinterRelocator`); nil to
    /// never look.
    public let locate: PrinterLocator?
    let report: @Sendable (SpoolerEvent) -> Void
    let trouble = TroubleBook()
    let validated = ValidationBook()
    let readiness: ReadinessBook
    /// The roles whose loop keeps failing: the agent reports itself unhealthy while any is stuck.
    public let health = RoleHealth()
    let wakeUp = WakeUp()
    /// The least time between two looks for roles not yet served.
    static let newRoleSpacing = Duration.seconds(1)

    public init(store: KioskStore, preparer: DocumentPreparer, configuration: SpoolerConfiguration = SpoolerConfiguration(),
                channels: PrinterChannels? = nil,
                report: @escaping @Sendable (SpoolerEvent) -> Void = { _ in }, locate: PrinterLocator? = nil) {
        self.store = store; self.preparer = preparer; self.configuration = configuration; self.report = report
        self.locate = locate
        self.channels = channels ?? .standard(timeout: configuration.requestTimeout)
        readiness = ReadinessBook(window: configuration.readinessReuse)
    }

    /// Serves every role with printers or jobs until the task is cancelled.
    /// Roles that appear later (a printer picked, a job for a new role) are
    /// picked up on the next look.
    public func run() async throws {
        try await releaseClaimsOfDeadProcesses()
        try await withThrowingTaskGroup(of: Void.self) { group in
            var serving: Set<Role> = []
            while !Task.isCancelled {
                let seen = wakeUp.current
                let looked = ContinuousClock.now
                for role in try await rolesWithWork() where !serving.contains(role) {
                    serving.insert(role)
                    group.addTask { await supervise(role) }
                }
                await wakeUp.wait(upTo: configuration.idlePoll * 4, since: seen)
                // New roles are rare (a printer picked while the agent runs), but
                // wake-ups come with every write while printing: look at most once a second.
                try? await Task.sleep(until: looked + Self.newRoleSpacing)
            }
            group.cancelAll()
        }
    }

    /// Delivers jobs of `jobID`'s role, in order, until that job has ended;
    /// returns it as it ended. What `print --wait` does when no agent runs.
    public func deliver(_ jobID: JobID) async throws -> PrintJob {
        let role = try await store.job(jobID).role
        try await releaseClaimsOfDeadProcesses()
        try await serve(role) { try await store.job(jobID).state.isTerminal }
        return try await store.job(jobID)
    }

    /// Asks `printer` whether it is ready now and keeps the answer as the
    /// next job's readiness check would (`readinessReuse`): `print --wait`
    /// asks while its job is drawn and stored, so that `deliver` sends at
    /// once. Trouble is not kept, so the job's own check asks again and
    /// reports it as always.
    public func askReadiness(of printer: SavedPrinter) async {
        let answer = await channels.channel(for: ChannelTarget(printer)).readiness()
        readiness.record(answer, for: printer.uri)
    }

    /// Tells idle roles to look for new jobs now (a trigger in this process enqueued one).
    public func wake() { wakeUp.signal() }

    /// Runs a role's loop for as long as the agent runs: an error thrown out
    /// of it (the disk full, the database locked or damaged) is reported at
    /// error level with the role and the cause, and the loop starts again
    /// after a backoff (`roleRestart`: 1 s, doubling to a minute), instead of
    /// ending that role's printing silently until a restart.
    func supervise(_ role: Role) async {
        while !Task.isCancelled {
            do {
                try await serve(role, until: { false })
                return
            } catch is CancellationError {
                return
            } catch {
                let reason = store.explain(error)
                // Failures in a row: a role that printed since starts again at the shortest wait.
                let failures = health.failed(role, reason: reason)
                let wait = configuration.roleRestart.delay(afterAttempt: failures - 1)
                report(.roleFailed(role, reason: reason, restartIn: wait))
                do { try await Task.sleep(for: wait) } catch { return }
            }
        }
    }

    /// One role's loop: claim the oldest job, run it, repeat; stop when `done` says so.
    func serve(_ role: Role, until done: @Sendable () async throws -> Bool) async throws {
        let runner = JobRunner(store: store, preparer: preparer, configuration: configuration, channels: channels,
                               relocation: locate.map { Relocation(locate: $0) }, report: report,
                               trouble: trouble, validated: validated, readiness: readiness)
        // Starting counts as work: the configuration, the migrations and the
        // first looks leave memory behind that an idle agent gives back too.
        var workedSinceIdle = true
        while try await !done() {
            try Task.checkCancellation()
            let seen = wakeUp.current
            let report = report
            let claimed = try await store.claimNext(role: role, owner: configuration.owner, lease: configuration.lease,
                                                    setAside: { report(.setAside($0, role: role, reason: $1)) })
            if let job = claimed {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    // Renew the claim while the job runs, so no other process takes it over.
                    group.addTask {
                        while true {
                            // Cut short by the job's end nearly always: a timer, so
                            // that nothing stays armed for the rest of the third.
                            try await TimerSleep.sleep(for: configuration.lease / 3)
                            _ = try await store.renewClaim(jobID: job.id, owner: configuration.owner, lease: configuration.lease)
                        }
                    }
                    try await runner.run(job)
                    group.cancelAll()
                    try? await group.waitForAll()
                }
            }
            // A job run or an empty look: the role works (a claim alone is not proof on a full disk).
            health.madeProgress(role)
            if claimed != nil {
                workedSinceIdle = true
                await configuration.afterJob()
            }
            if claimed == nil {
                if workedSinceIdle {
                    // The queue ran dry after work: once it stays dry for a moment, the memory
                    // a burst took (a long document's drawing above all) goes back to the
                    // system, not held until a restart. Not at once: a steady trickle of
                    // receipts would pay for the release after each one.
                    await wakeUp.wait(upTo: configuration.releaseAfterIdle, since: seen)
                    try Task.checkCancellation()
                    if wakeUp.current == seen {
                        await configuration.whenIdleAfterWork()
                        workedSinceIdle = false
                    }
                    continue
                }
                await wakeUp.wait(upTo: configuration.idlePoll, since: seen)
            }
        }
    }

    /// Claims held by a process of this machine that no longer exists (killed
    /// with -9, crashed) are released at once rather than after their lease:
    /// the jobs are then recovered by their marker, not sent twice.
    func releaseClaimsOfDeadProcesses() async throws {
        let host = ProcessInfo.processInfo.hostName
        for job in try await store.jobs(includeFinished: false) {
            guard let owner = job.claimedBy, owner != configuration.owner else { continue }
            // Owners are "host:pid:random" (SpoolerConfiguration.processOwner).
            let parts = owner.split(separator: ":")
            guard parts.count >= 3, parts.dropLast(2).joined(separator: ":") == host,
                  let pid = Int32(parts[parts.count - 2]), pid > 0 else { continue }
            if kill(pid, 0) != 0, errno == ESRCH {
                try await store.releaseClaim(jobID: job.id, owner: owner)
            }
        }
    }

    private func rolesWithWork() async throws -> Set<Role> {
        let assigned = try await store.assignments().map(\.role)
        return try await store.rolesWithUnfinishedJobs().union(assigned)
    }
}

/// Wakes waiting role loops early. A loop reads `current` before it looks
/// for work and passes it to `wait`: a signal that came in between ends the
/// wait at once, so no signal is lost in the gap. A wait also ends after its
/// limit, the safety net for work nobody signalled; an idle wait sleeps for
/// its whole limit, so an idle agent does not spin.
final class WakeUp: Sendable {
    private enum Slot {
        case waiting(CheckedContinuation<Void, Never>, OneShotTimer)
        /// The wait ended before its continuation was registered.
        case ended
    }
    private struct State {
        /// Signals so far.
        var generation: UInt64 = 0
        var slots: [UInt64: Slot] = [:]
    }
    private let state = Mutex(State())
    private let nextID = Atomic<UInt64>(0)

    /// The number of signals so far: read it before looking for work.
    var current: UInt64 { state.withLock { $0.generation } }

    /// For tests (it reads the private slots): waits registered or marked and
    /// not yet cleared, none once every wait has returned.
    package var slotCount: Int { state.withLock { $0.slots.count } }

    /// Ends every wait now, and every wait whose `since` predates this signal.
    func signal() {
        let woken: [CheckedContinuation<Void, Never>] = state.withLock { state in
            state.generation &+= 1
            var woken: [CheckedContinuation<Void, Never>] = []
            for (id, slot) in state.slots {
                if case .waiting(let continuation, let timer) = slot {
                    timer.cancel()
                    woken.append(continuation)
                    state.slots[id] = nil
                }
            }
            return woken
        }
        for continuation in woken { continuation.resume() }
    }

    /// Returns after `limit`, or as soon as there has been a signal since
    /// `seen` (a value of `current`): at once if one came already.
    ///
    /// One continuation and a ``OneShotTimer``: every commit ends the waits of
    /// the idle roles, and a sleeping child task in a group (as before) took
    /// three tasks per wait and left each one's wake-up armed for the rest of
    /// its limit.
    func wait(upTo limit: Duration, since seen: UInt64) async {
        let id = nextID.add(1, ordering: .relaxed).newValue
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                // The timer is made only for a wait that registers: a signal often
                // comes between the look and the wait, and it would go unused.
                let timer: OneShotTimer? = state.withLock { state in
                    if case .ended = state.slots[id] {
                        state.slots[id] = nil
                        return nil
                    }
                    if state.generation != seen { return nil }
                    let timer = OneShotTimer(after: limit) { [self] in expire(id) }
                    state.slots[id] = .waiting(continuation, timer)
                    return timer
                }
                // Started outside the lock; a signal that took the slot meanwhile
                // has cancelled it, and a cancelled timer never runs.
                if let timer { timer.start() } else { continuation.resume() }
            }
        } onCancel: {
            end(id)
        }
        // The wait is over: a mark left by a cancellation that came first goes too.
        state.withLock { $0.slots[id] = nil }
    }

    /// The limit of wait `id` has passed: resumes it if it still waits.
    private func expire(_ id: UInt64) {
        let continuation: CheckedContinuation<Void, Never>? = state.withLock { state in
            guard case .waiting(let continuation, _) = state.slots[id] else { return nil }
            state.slots[id] = nil
            return continuation
        }
        continuation?.resume()
    }

    /// Resumes wait `id` if it still waits, or marks it ended so that a
    /// continuation registered late resumes at once: each resumes exactly once.
    private func end(_ id: UInt64) {
        let continuation: CheckedContinuation<Void, Never>? = state.withLock { state in
            switch state.slots[id] {
            case .waiting(let continuation, let timer):
                state.slots[id] = nil
                timer.cancel()
                return continuation
            case .ended:
                return nil
            case nil:
                state.slots[id] = .ended
                return nil
            }
        }
        continuation?.resume()
    }
}
