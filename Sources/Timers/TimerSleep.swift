import Synchronization

/// `Task.sleep(for:)` on a ``OneShotTimer``: the same cancellation (a
/// `CancellationError` at once), but a cancelled sleep leaves nothing armed
/// behind it. For sleeps that are usually cut short, such as a lease renewal
/// that waits for a job to end.
///
/// ```swift
/// try await TimerSleep.sleep(for: .seconds(20))
/// ```
public enum TimerSleep {
    /// Returns after `duration`, or throws `CancellationError` as soon as the
    /// task is cancelled (at once if it is already).
    public static func sleep(for duration: Duration) async throws {
        let sleeper = Sleeper()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                sleeper.begin(continuation, for: duration)
            }
        } onCancel: {
            sleeper.end(cancelled: true)
        }
    }
}

/// One sleep's state: the continuation resumes exactly once, whichever of the
/// timer and the cancellation comes first, even before it was registered.
private final class Sleeper: Sendable {
    private enum Phase {
        case notBegun
        /// Cancelled before the continuation was registered.
        case cancelledEarly
        case sleeping(CheckedContinuation<Void, any Error>, OneShotTimer)
        case over
    }
    private let phase = Mutex(Phase.notBegun)

    func begin(_ continuation: CheckedContinuation<Void, any Error>, for duration: Duration) {
        let timer = OneShotTimer(after: duration) { [self] in end(cancelled: false) }
        let cancelledAlready = phase.withLock { phase in
            guard case .notBegun = phase else {
                phase = .over
                return true
            }
            phase = .sleeping(continuation, timer)
            return false
        }
        if cancelledAlready {
            timer.cancel()
            continuation.resume(throwing: CancellationError())
        } else {
            timer.start()
        }
    }

    func end(cancelled: Bool) {
        let sleeping: (CheckedContinuation<Void, any Error>, OneShotTimer)? = phase.withLock { phase in
            switch phase {
            case .sleeping(let continuation, let timer):
                phase = .over
                return (continuation, timer)
            case .notBegun:
                if cancelled { phase = .cancelledEarly }
                return nil
            case .cancelledEarly, .over:
                return nil
            }
        }
        guard let (continuation, timer) = sleeping else { return }
        timer.cancel()
        if cancelled {
            continuation.resume(throwing: CancellationError())
        } else {
            continuation.resume()
        }
    }
}
