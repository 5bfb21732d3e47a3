import Foundation
@testable import IPP
import Simulator
import Testing

/// The threads blocking libcups work runs on: reused, never waited for, let go.
@Suite("Worker pool")
struct WorkerPoolTests {
    @Test("A finished worker takes the next piece of work; no second thread starts")
    func reused() async throws {
        let pool = WorkerPool(name: "test-worker", idleLimit: .seconds(30))
        let threads = Recorder()
        pool.run { threads.add(pthread_self()) }
        #expect(await pollUntil(within: .seconds(10)) { pool.parkedCount == 1 })
        pool.run { threads.add(pthread_self()) }
        #expect(await pollUntil(within: .seconds(10)) { threads.count == 2 && pool.parkedCount == 1 })
        #expect(Set(threads.all).count == 1, "both ran on one thread")
        #expect(pool.threadCount == 1)
    }

    @Test("Work never waits for a busy worker, and workers idle past the limit exit")
    func busyAndIdle() async throws {
        let pool = WorkerPool(name: "test-worker", idleLimit: .milliseconds(200))
        let release = DispatchSemaphore(value: 0)
        let started = Recorder()
        // Three blocked workers: the fourth piece of work still runs at once.
        for _ in 0..<3 { pool.run { started.add(pthread_self()); release.wait() } }
        let fourth = Recorder()
        pool.run { fourth.add(pthread_self()) }
        let ran = await pollUntil(within: .seconds(10)) { fourth.count == 1 && started.count == 3 }
        #expect(ran, "the fourth piece of work ran while three workers were blocked")
        #expect(Set(started.all + fourth.all).count == 4, "four pieces of work, four threads")

        for _ in 0..<3 { release.signal() }
        let gone = await pollUntil(within: .seconds(20), every: .milliseconds(50)) { pool.threadCount == 0 }
        #expect(gone, "\(pool.threadCount) threads left after the idle limit")
        #expect(pool.parkedCount == 0)
    }
}

/// Values recorded from worker threads.
private final class Recorder: @unchecked Sendable { // `values` guarded by `lock`
    private let lock = NSLock()
    private var values: [pthread_t] = []
    func add(_ value: pthread_t) { lock.withLock { values.append(value) } }
    var all: [pthread_t] { lock.withLock { values } }
    var count: Int { lock.withLock { values.count } }
}
