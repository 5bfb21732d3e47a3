import Synchronization
import Testing
import Timers

/// `TimerSleep` must behave as `Task.sleep` does for its callers: it returns
/// after its duration, and throws `CancellationError` as soon as its task is
/// cancelled, whenever that comes.
@Suite(.timeLimit(.minutes(1))) struct TimerSleepTests {
    @Test func returnsAfterItsDuration() async throws {
        let start = ContinuousClock.now
        try await TimerSleep.sleep(for: .milliseconds(5))
        #expect(ContinuousClock.now - start >= .milliseconds(5))
    }

    @Test func aCancelledSleepThrowsLongBeforeItsEnd() async {
        let sleeper = Task {
            let start = ContinuousClock.now
            do {
                try await TimerSleep.sleep(for: .seconds(3600))
                return (threw: false, after: ContinuousClock.now - start)
            } catch {
                return (threw: error is CancellationError, after: ContinuousClock.now - start)
            }
        }
        sleeper.cancel()
        let outcome = await sleeper.value
        #expect(outcome.threw)
        #expect(outcome.after < .seconds(60))
    }

    @Test func aSleepInAnAlreadyCancelledTaskThrowsAtOnce() async {
        let threw = await Task {
            withUnsafeCurrentTask { $0?.cancel() }
            do { try await TimerSleep.sleep(for: .seconds(3600)) } catch { return error is CancellationError }
            return false
        }.value
        #expect(threw)
    }

    /// Cancellations racing the timers: each sleep ends exactly once, either way.
    final class Count: Sendable {
        let value = Atomic(0)
    }

    @Test func manySleepsCancelledAsTheyEndAllEnd() async {
        let ended = Count()
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<500 {
                group.addTask {
                    try? await TimerSleep.sleep(for: .microseconds(index % 50))
                    ended.value.add(1, ordering: .relaxed)
                }
                if index % 3 == 0 { group.cancelAll() }
            }
        }
        #expect(ended.value.load(ordering: .relaxed) == 500)
    }
}
