import Dispatch
import Synchronization
import Testing
@testable import Timers

/// The timers the agent arms by the thousand and nearly always cancels: each
/// must run at most once, and a cancelled one must let go of its action (and
/// what the action holds) at once, not at its deadline.
@Suite(.timeLimit(.minutes(1))) struct OneShotTimerTests {
    /// Counts its action's runs, and tells when the action itself is gone.
    final class Tracker: Sendable {
        let runs = Atomic(0)
    }

    /// Waits on the timers' queue, where libdispatch drops a cancelled or
    /// released source's handler, until `tracked` is gone; whether it went.
    static func isReleased(_ tracked: () -> Tracker?, draining queue: DispatchQueue) async -> Bool {
        for _ in 0..<1000 where tracked() != nil {
            queue.sync {}
            await Task.yield()
        }
        return tracked() == nil
    }

    @Test func runsItsActionOnceAfterTheDelay() async {
        let queue = DispatchQueue(label: "timer-tests")
        let tracker = Tracker()
        let timer = OneShotTimer(after: .milliseconds(1), queue: queue) { tracker.runs.add(1, ordering: .relaxed) }
        // A timer is cancelled when it is released: `later` is kept until it has run.
        var later: OneShotTimer?
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            // Armed after the first: on the same serial queue, it runs after it.
            later = OneShotTimer(after: .milliseconds(20), queue: queue) { done.resume() }
            timer.start()
            timer.start()  // a second start arms nothing more
            later?.start()
        }
        withExtendedLifetime(later) {}
        #expect(tracker.runs.load(ordering: .relaxed) == 1)
    }

    @Test func aTimerCancelledBeforeItsDeadlineNeverRuns() async {
        let queue = DispatchQueue(label: "timer-tests")
        let tracker = Tracker()
        let early = OneShotTimer(after: .milliseconds(1), queue: queue) { tracker.runs.add(1, ordering: .relaxed) }
        early.cancel()
        early.start()
        var later: OneShotTimer?
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            later = OneShotTimer.started(after: .milliseconds(20), queue: queue) { done.resume() }
        }
        withExtendedLifetime(later) {}
        #expect(tracker.runs.load(ordering: .relaxed) == 0)
    }

    /// The point of the type: a cancelled timer of an hour holds nothing for that hour.
    @Test func aCancelledTimerLetsGoOfItsActionAtOnce() async {
        let queue = DispatchQueue(label: "timer-tests")
        weak var released: Tracker?
        var timer: OneShotTimer?
        do {
            let tracker = Tracker()
            released = tracker
            timer = OneShotTimer.started(after: .seconds(3600), queue: queue) { tracker.runs.add(1, ordering: .relaxed) }
        }
        #expect(released != nil)
        timer?.cancel()
        timer = nil
        #expect(await Self.isReleased({ released }, draining: queue))
    }

    /// Releasing a timer cancels it (whoever arms one keeps it until it has
    /// run): an hour's timer dropped holds nothing for the hour.
    @Test func aReleasedTimerLetsGoOfItsActionAtOnce() async {
        let queue = DispatchQueue(label: "timer-tests")
        weak var released: Tracker?
        do {
            let tracker = Tracker()
            released = tracker
            _ = OneShotTimer.started(after: .seconds(3600), queue: queue) { tracker.runs.add(1, ordering: .relaxed) }
        }
        #expect(await Self.isReleased({ released }, draining: queue))
    }

    @Test func aTimerNeverStartedCanBeDropped() async {
        let queue = DispatchQueue(label: "timer-tests")
        weak var released: Tracker?
        do {
            let tracker = Tracker()
            released = tracker
            _ = OneShotTimer(after: .seconds(1), queue: queue) { tracker.runs.add(1, ordering: .relaxed) }
        }
        // No crash (libdispatch aborts on releasing a source never resumed), and nothing kept.
        #expect(await Self.isReleased({ released }, draining: queue))
    }

    @Test(arguments: [
        (Duration.seconds(-1), DispatchTimeInterval.nanoseconds(0)),
        (.milliseconds(1500), .nanoseconds(1_500_000_000)),
        (.seconds(Int64.max), .never),
    ])
    func durationsBecomeLibdispatchIntervals(_ duration: Duration, _ interval: DispatchTimeInterval) {
        #expect(OneShotTimer.interval(duration) == interval)
    }
}
