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
            await wake.wait(upTo: .seconds(600))
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

    @Test func waitsEndOnTheirOwnEvenWhenTheLimitComesFirst() async {
        let wake = WakeUp()
        let ended = Count()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<200 {
                group.addTask {
                    await wake.wait(upTo: .microseconds(1))
                    ended.value.add(1, ordering: .relaxed)
                }
            }
        }
        #expect(ended.value.load(ordering: .relaxed) == 200)
    }
}
