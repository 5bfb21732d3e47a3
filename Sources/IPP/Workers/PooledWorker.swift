import Foundation

/// One thread of a `WorkerPool`, as the pool sees it: a slot for the next
/// piece of work and a condition to wake the thread when it is filled.
final class PooledWorker: @unchecked Sendable { // `pending` guarded by `condition`
    private let condition = NSCondition()
    private var pending: (@Sendable () -> Void)?

    /// Gives the thread its next piece of work and wakes it.
    func hand(_ work: @escaping @Sendable () -> Void) {
        condition.lock()
        pending = work
        condition.signal()
        condition.unlock()
    }

    /// Waits for the next piece of work, at most until `limit` when given.
    func next(until limit: Date?) -> (@Sendable () -> Void)? {
        condition.lock()
        defer { condition.unlock() }
        while pending == nil {
            if let limit {
                if !condition.wait(until: limit) { break }
            } else {
                condition.wait()
            }
        }
        let work = pending
        pending = nil
        return work
    }
}
