import Foundation
import Timers

/// Deadline and cancellation shared between the caller's task, the worker
/// thread and libcups' timeout callback, which runs on the worker thread
/// while libcups waits for the printer.
final class ExchangeControl: @unchecked Sendable { // mutable state guarded by `lock`
    let start: ContinuousClock.Instant
    let deadline: ContinuousClock.Instant
    let timeout: Duration
    private let lock = NSLock()
    private var cancelled = false
    private var deadlinePassed = false
    private var lookedUp = false

    init(timeout: Duration) {
        self.timeout = timeout
        start = .now
        deadline = start + timeout
    }

    /// What libcups' timeout callback answers: keep waiting unless the
    /// caller cancelled or the deadline has passed.
    func keepWaiting() -> Bool {
        lock.withLock {
            if cancelled { return false }
            if ContinuousClock.now >= deadline { deadlinePassed = true; return false }
            return true
        }
    }

    func cancel() { lock.withLock { cancelled = true } }

    /// The worker has resolved the host name and is connecting or talking.
    func markLookedUp() { lock.withLock { lookedUp = true } }

    /// False while the worker is still in the host name lookup, which no
    /// libcups timeout bounds.
    var hasLookedUp: Bool { lock.withLock { lookedUp } }

    var isCancelled: Bool { lock.withLock { cancelled } }

    /// True once the callback gave up because time ran out.
    var gaveUpOnDeadline: Bool { lock.withLock { deadlinePassed } }

    /// Milliseconds left, at least 1 (libcups reads 0 as "do not connect").
    var remainingMilliseconds: Int32 {
        let left = deadline - .now
        let ms = left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000
        return Int32(clamping: max(1, ms))
    }

    var elapsed: Duration { .now - start }

    var timeoutSeconds: Double { Self.seconds(timeout) }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}

/// Delivers exactly one result to a continuation, whoever comes first: the
/// worker thread, the deadline backstop, or cancellation. A result that
/// arrives before the continuation exists is kept until it does.
final class ResumeOnce<Value: Sendable>: @unchecked Sendable { // state guarded by `lock`
    private let lock = NSLock()
    private var continuation: CheckedContinuation<Value, Never>?
    private var pending: Value?
    private var done = false
    private var onDone: [@Sendable () -> Void] = []

    func attach(_ continuation: CheckedContinuation<Value, Never>) {
        let ready: Value? = lock.withLock {
            if let pending { self.pending = nil; return pending }
            self.continuation = continuation
            return nil
        }
        if let ready { continuation.resume(returning: ready) }
    }

    /// Runs `action` once a result has been delivered (at once if it already has).
    func whenDone(_ action: @escaping @Sendable () -> Void) {
        let runNow = lock.withLock {
            if done { return true }
            onDone.append(action)
            return false
        }
        if runNow { action() }
    }

    func resume(_ value: Value) {
        let (target, actions): (CheckedContinuation<Value, Never>?, [@Sendable () -> Void]) = lock.withLock {
            guard !done else { return (nil, []) }
            done = true
            let actions = onDone
            onDone = []
            if let continuation {
                self.continuation = nil
                return (continuation, actions)
            }
            pending = value
            return (nil, actions)
        }
        target?.resume(returning: value)
        actions.forEach { $0() }
    }
}

enum BlockingExchange {
    /// Runs `work` (blocking libcups calls) on a thread of `pool`, never on
    /// Swift's cooperative pool, whose few threads a stuck printer must not hold.
    ///
    /// The call returns by the deadline even when libcups does not: the TLS
    /// handshake enforces its own 10 s minimum and ignores our timeout
    /// callback, and a printer that trickles bytes never lets a wait expire.
    /// Then the caller gets `onDeadline` half a second past the deadline and
    /// the worker, told to give up, finishes on its own; only then does it
    /// return to the pool.
    static func run<Value: Sendable>(
        control: ExchangeControl, pool: WorkerPool = .shared,
        onDeadline: @escaping @Sendable () -> Value,
        onCancel: @escaping @Sendable () -> Value,
        work: @escaping @Sendable () -> Value
    ) async -> Value {
        let once = ResumeOnce<Value>()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                once.attach(continuation)
                pool.run { once.resume(work()) }
                // A timer, not a sleeping task: cancelled with every exchange that
                // ends in time, it must leave nothing armed (OneShotTimer).
                let backstop = OneShotTimer.started(after: control.deadline + .milliseconds(500) - .now) {
                    control.cancel()
                    once.resume(onDeadline())
                }
                once.whenDone { backstop.cancel() }
            }
        } onCancel: {
            control.cancel()
            once.resume(onCancel())
        }
    }
}
