import Foundation

/// Runs blocking work (waitpid, process start-up) on a thread of its own.
/// The cooperative pool has one thread per core, two here: blocking one of
/// them would stall the very PrinterFinder tasks being timed.
func offThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread { continuation.resume(with: Result { try work() }) }
    }
}

/// Waits until `condition` holds, checking every `interval`; false if `limit`
/// passes first. Only for waiting between measurements: every figure is
/// stamped by the observer that saw the event, never by this loop.
func pollUntil(within limit: Duration, every interval: Duration = .milliseconds(5),
               _ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + limit
    while !condition() {
        if ContinuousClock.now >= deadline { return false }
        try? await Task.sleep(for: interval)
    }
    return true
}
