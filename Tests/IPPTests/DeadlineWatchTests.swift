import Foundation
@testable import IPP
import Testing

/// The thread that fires IPP exchanges' deadline backstops. Each test has a
/// watch of its own; waits are for an event, with a generous limit.
@Suite struct DeadlineWatchTests {
    let watch = DeadlineWatch()

    @Test func aBackstopFiresOnceItIsDue() {
        let fired = DispatchSemaphore(value: 0)
        _ = watch.add(due: .now + .milliseconds(10)) { fired.signal() }
        #expect(fired.wait(timeout: .now() + 10) == .success)
        #expect(watch.pending == 0)
    }

    @Test func aCancelledBackstopNeverFires() {
        let cancelledFired = DispatchSemaphore(value: 0)
        let ticket = watch.add(due: .now + .milliseconds(20)) { cancelledFired.signal() }
        watch.cancel(ticket)
        // A later one: by the time it fires, the cancelled one would have fired first.
        let later = DispatchSemaphore(value: 0)
        _ = watch.add(due: .now + .milliseconds(60)) { later.signal() }
        #expect(later.wait(timeout: .now() + 10) == .success)
        #expect(cancelledFired.wait(timeout: .now()) == .timedOut)
        #expect(watch.pending == 0)
    }

    /// An exchange with a short deadline starts while the thread sleeps
    /// until a long one's: it is woken, not left to the long one's time.
    @Test func anEarlierBackstopWakesTheThreadSleepingForALaterOne() {
        let late = watch.add(due: .now + .seconds(3600)) {}
        let early = DispatchSemaphore(value: 0)
        _ = watch.add(due: .now + .milliseconds(10)) { early.signal() }
        #expect(early.wait(timeout: .now() + 10) == .success)
        #expect(watch.pending == 1)
        watch.cancel(late)
        #expect(watch.pending == 0)
    }
}
