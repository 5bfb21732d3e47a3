import Synchronization
import Testing
@testable import Spooler

/// The idle wait of the spooler's role loops: a hang here is a stuck agent,
/// so the suite's time limit is what fails it.
@Suite(.timeLimit(.minutes(1))) struct WakeUpTests {
    /// A counter the waiting tasks share.
    final class Count: Sendable {
        let value = Atomic<Int>(0)
    }

    @Test func aSignalEndsAWaitLongBeforeItsLimit() async {
        let wake = WakeUp()
        let ended = Count()
        let waiting = Task {
            let start = ContinuousClock.now
            await wake.wait(upTo: .seconds(600), since: 0)
            ended.value.store(1, ordering: .releasing)
            return ContinuousClock.now - start
        }
        // The waiter may not be waiting yet at the first signal: signal until it returns.
        while ended.value.load(ordering: .acquiring) == 0 {
            wake.signal()
            await Task.yield()
        }
        #expect(await waiting.value < .seconds(60))
    }

    /// The gap a role loop has between looking for work and waiting: a job
    /// queued (and signalled) there must not wait for the limit.
    @Test func aSignalBetweenLookingAndWaitingEndsTheWaitAtOnce() async {
        let wake = WakeUp()
        let seen = wake.current
        wake.signal()
        let start = ContinuousClock.now
        await wake.wait(upTo: .seconds(600), since: seen)
        #expect(ContinuousClock.now - start < .seconds(60))
        #expect(wake.current == seen + 1)
    }

    @Test func aWaitSinceTheLatestSignalStillWaitsForTheNext() async {
        let wake = WakeUp()
        wake.signal()
        let seen = wake.current
        let ended = Count()
        let waiting = Task {
            await wake.wait(upTo: .seconds(600), since: seen)
            ended.value.store(1, ordering: .releasing)
        }
        // Nothing new was signalled: it is still waiting after the task has had every chance to run.
        for _ in 0..<100 { await Task.yield() }
        #expect(ended.value.load(ordering: .acquiring) == 0)
        while ended.value.load(ordering: .acquiring) == 0 {
            wake.signal()
            await Task.yield()
        }
        await waiting.value
        #expect(wake.current > seen)
    }

    @Test func waitsEndOnTheirOwnEvenWhenTheLimitComesFirst() async {
        let wake = WakeUp()
        let ended = Count()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<200 {
                group.addTask {
                    await wake.wait(upTo: .microseconds(1), since: wake.current)
                    ended.value.add(1, ordering: .relaxed)
                }
            }
        }
        #expect(ended.value.load(ordering: .relaxed) == 200)
    }

    /// Every commit ends the idle roles' waits: each ended wait, by a signal,
    /// its limit or its task's cancellation, must leave nothing behind.
    @Test func endedWaitsLeaveNothingBehind() async {
        let wake = WakeUp()
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<300 {
                let seen = wake.current
                group.addTask {
                    // A third end by their limit, the rest by the signals below.
                    await wake.wait(upTo: index % 3 == 0 ? .microseconds(index) : .seconds(600), since: seen)
                }
                if index % 10 == 0 { wake.signal() }
            }
            while wake.slotCount > 0 || group.isEmpty == false {
                wake.signal()
                if await group.next() == nil { break }
            }
        }
        #expect(wake.slotCount == 0)
        let cancelled = Task { await wake.wait(upTo: .seconds(600), since: wake.current) }
        cancelled.cancel()
        await cancelled.value
        #expect(wake.slotCount == 0)
    }
}
