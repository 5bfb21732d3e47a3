import Foundation
import Synchronization

/// Runs `work` to its end from synchronous code (the fuzzer's callback):
/// the readers behind a listener are async.
func wait<T: Sendable>(_ work: @escaping @Sendable () async -> T) -> T {
    let result = Mutex<T?>(nil)
    let done = DispatchSemaphore(value: 0)
    Task {
        let value = await work()
        result.withLock { $0 = value }
        done.signal()
    }
    done.wait()
    return result.withLock { $0! }
}
