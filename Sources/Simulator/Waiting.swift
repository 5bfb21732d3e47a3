import Foundation

// The project's ways to wait: for a condition with a deadline, and for
// blocking work off Swift's cooperative pool. Tests, the lab and the bench
// use these rather than writing their own loops.

/// Waits until `condition` holds, checking every 10 ms, or throws after `limit`.
/// The wait ends on the event itself; the limit only bounds a failure.
func waitUntil(_ what: String, within limit: Duration = .seconds(10),
               _ condition: () throws -> Bool) throws {
    let deadline = ContinuousClock.now + limit
    while try !condition() {
        if ContinuousClock.now > deadline { throw LabError.timedOut(what) }
        usleep(10_000)
    }
}

/// Waits until `condition` holds, checking every `interval`, without holding
/// a thread; returns false if `limit` passes first (after one last check).
/// The wait ends on the condition itself; the limit only bounds a failure.
public func pollUntil(within limit: Duration, every interval: Duration = .milliseconds(10),
                      _ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + limit
    while !condition() {
        guard ContinuousClock.now < deadline else { return condition() }
        try? await Task.sleep(for: interval)
    }
    return true
}

/// Waits until the async `condition` holds (reading a database, asking a
/// printer), checking every `interval`; throws `LabError.timedOut(what)` if
/// `limit` passes first. The limit only bounds a failure.
public func pollUntil(_ what: String, within limit: Duration, every interval: Duration = .milliseconds(20),
                      _ condition: () async throws -> Bool) async throws {
    let deadline = ContinuousClock.now + limit
    while try await !condition() {
        guard ContinuousClock.now < deadline else { throw LabError.timedOut(what) }
        try await Task.sleep(for: interval)
    }
}

/// Runs blocking work (process start-up, waitpid, polling) on a thread of its
/// own: Swift's cooperative pool has one thread per core, and a blocked one
/// stalls every other task.
public func offloaded<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread { continuation.resume(with: Result { try work() }) }
    }
}
