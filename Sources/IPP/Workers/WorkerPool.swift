import Foundation

/// Threads for blocking libcups work, kept between exchanges.
///
/// Starting a thread per exchange cost more CPU than the exchange itself
/// (thread creation, a fresh malloc arena, the kernel's bookkeeping), so a
/// finished worker parks and takes the next piece of work. A piece of work
/// never waits for a busy worker: when none is parked a new thread starts, so
/// a printer that hangs one worker never delays another printer's exchange.
/// A worker parked for `idleLimit` exits: an idle agent keeps no threads.
/// Workers block SIGPIPE (see `blockSIGPIPE`).
final class WorkerPool: @unchecked Sendable { // `parked` and `live` guarded by `lock`
    /// The pool every IPP exchange runs on.
    static let shared = WorkerPool(name: "ipp-worker", idleLimit: .seconds(30))

    let name: String
    let idleLimit: Duration
    private let lock = NSLock()
    /// Most recently parked last: the warmest thread is reused first, and
    /// the others reach their idle limit.
    private var parked: [PooledWorker] = []
    private var live = 0

    init(name: String, idleLimit: Duration) {
        self.name = name
        self.idleLimit = idleLimit
    }

    /// Runs `work` on a parked worker, or on a new thread when every worker is busy.
    func run(_ work: @escaping @Sendable () -> Void) {
        let worker: PooledWorker? = lock.withLock {
            if let worker = parked.popLast() { return worker }
            live += 1
            return nil
        }
        if let worker {
            worker.hand(work)
            return
        }
        let fresh = PooledWorker()
        // Handed before the thread starts, so the thread's closure holds the
        // worker and not the work, whose captures go when it is done.
        fresh.hand(work)
        let thread = Thread { [self] in serve(fresh) }
        thread.name = name
        thread.start()
    }

    /// For tests (it reads `live` under the private lock): threads alive, busy or parked.
    package var threadCount: Int { lock.withLock { live } }

    /// For tests (it reads `parked` under the private lock): threads parked, waiting for work.
    package var parkedCount: Int { lock.withLock { parked.count } }

    private func serve(_ worker: PooledWorker) {
        Self.blockSIGPIPE()
        var limit: Date? = nil  // its first piece of work was handed before it started
        while true {
            if let work = worker.next(until: limit) {
                work()
                lock.withLock { parked.append(worker) }
                limit = Date() + Self.timeInterval(idleLimit)
            } else if retire(worker) {
                return
            } else {
                // Taken from `parked` as its limit ran out: the work is on its way.
                limit = nil
            }
        }
    }

    /// Removes `worker` from the parked ones, unless a caller took it already.
    private func retire(_ worker: PooledWorker) -> Bool {
        lock.withLock {
            guard let index = parked.firstIndex(where: { $0 === worker }) else { return false }
            parked.remove(at: index)
            live -= 1
            return true
        }
    }

    private static func timeInterval(_ duration: Duration) -> TimeInterval {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    /// libcups writes with send(..., 0): a printer that closes mid-request
    /// would raise SIGPIPE and kill the whole agent. Blocked on the pool's
    /// threads only, the signal stays pending on the thread, send() fails with
    /// EPIPE instead, and the pending signal vanishes with the thread. No
    /// process-wide change.
    private static func blockSIGPIPE() {
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGPIPE)
        pthread_sigmask(SIG_BLOCK, &set, nil)
    }
}
