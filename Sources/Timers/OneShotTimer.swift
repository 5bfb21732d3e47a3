public import Dispatch
import Synchronization

/// An action run once after a delay unless cancelled first, on a libdispatch
/// timer that is disarmed and freed the moment it is cancelled.
///
/// Why not a child task sleeping with `Task.sleep`: a cancelled sleep ends at
/// once, but its wake-up (a task and a libdispatch timer, about 1.4 KB) stays
/// armed until the original deadline. The agent cancels such waits by the
/// thousand in a burst of jobs (an idle wait at every commit, a backstop per
/// IPP exchange, a lease renewal per job): heaptrack found 1.4 MB of them
/// still held 5 s after a burst, scattered among the burst's freed blocks,
/// where they kept the heap's pages from going back to the system.
///
/// ```swift
/// let timer = OneShotTimer(after: .seconds(5)) { print("late") }
/// timer.start()
/// timer.cancel()   // nothing is left armed
/// ```
public final class OneShotTimer: @unchecked Sendable { // a libdispatch source may be started and cancelled from any thread
    private let source: any DispatchSourceTimer
    private let started = Atomic(false)

    /// A timer that runs `action` on `queue` once `delay` has passed after
    /// ``start()``; `leeway` lets the kernel fold its wake-up into others.
    public init(after delay: Duration, leeway: Duration = .milliseconds(10),
                queue: DispatchQueue = .global(), action: @escaping @Sendable () -> Void) {
        source = DispatchSource.makeTimerSource(queue: queue)
        source.schedule(deadline: .now() + Self.interval(delay), leeway: Self.interval(leeway))
        source.setEventHandler(handler: action)
    }

    /// A timer armed at once.
    public static func started(after delay: Duration, leeway: Duration = .milliseconds(10),
                               queue: DispatchQueue = .global(),
                               action: @escaping @Sendable () -> Void) -> OneShotTimer {
        let timer = OneShotTimer(after: delay, leeway: leeway, queue: queue, action: action)
        timer.start()
        return timer
    }

    /// Arms the timer; a second call does nothing. A timer cancelled first never runs.
    public func start() {
        if !started.exchange(true, ordering: .acquiringAndReleasing) { source.resume() }
    }

    /// Disarms the timer: its action does not run unless it has begun already.
    public func cancel() {
        source.cancel()
    }

    deinit {
        // libdispatch aborts when a source that was never resumed is released;
        // once cancelled, resuming it runs nothing.
        source.cancel()
        start()
    }

    /// `duration` as libdispatch's interval: negative as zero, beyond its range as never.
    static func interval(_ duration: Duration) -> DispatchTimeInterval {
        let (seconds, attoseconds) = duration.components
        if seconds < 0 || (seconds == 0 && attoseconds < 0) { return .nanoseconds(0) }
        let whole = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        if whole.overflow || whole.partialValue > Int64(Int.max) - 1_000_000_000 { return .never }
        return .nanoseconds(Int(whole.partialValue + attoseconds / 1_000_000_000))
    }
}
