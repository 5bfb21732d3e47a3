import Synchronization

/// Keeps apart, inside one test process, the tests that count the
/// connections made to a lab printer and the tests that contact every
/// printer the lab announces (`PrinterFinder`): a find running meanwhile
/// opened connections of its own to the counted printer, from the same
/// process, and the count read 2 or 3 where it should read 1.
///
/// An async lock: a waiter suspends, it does not block a thread.
public final class LabContactLock: Sendable {
    /// The one lock of this process.
    public static let shared = LabContactLock()

    private struct State {
        var held = false
        var waiting: [CheckedContinuation<Void, Never>] = []
    }
    private let state = Mutex(State())

    /// Runs `body` while no other holder runs.
    public func run<T>(_ body: () async throws -> T) async rethrows -> T {
        await acquire()
        defer { release() }
        return try await body()
    }

    private func acquire() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let granted = state.withLock { state -> Bool in
                if state.held {
                    state.waiting.append(continuation)
                    return false
                }
                state.held = true
                return true
            }
            if granted { continuation.resume() }
        }
    }

    private func release() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            if state.waiting.isEmpty {
                state.held = false
                return nil
            }
            return state.waiting.removeFirst()  // handed over: `held` stays true
        }
        next?.resume()
    }
}
