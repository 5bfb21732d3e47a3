import Foundation

/// Open connections to printers, kept between exchanges.
///
/// Each exchange used to connect (host-name lookup included) and close
/// again: a follow of one job is a dozen exchanges with the same printer.
/// Now a connection that can carry another request is given back here and
/// lent to the next exchange with the same `ConnectionKey`, one exchange at a
/// time (a second exchange while it is lent opens another). A connection
/// the printer closed while it sat idle is noticed before it is lent, and
/// one unused for `idleLimit` is closed: printers drop idle connections
/// after a while (ippeveprinter after 30 s, some real ones after a few).
final class ConnectionCache: @unchecked Sendable { // `idle`, `counts` and `sweepPending` guarded by `lock`
    /// The cache every IPP exchange uses.
    static let shared = ConnectionCache(idleLimit: .seconds(5))

    let idleLimit: Duration
    private let pool: WorkerPool
    private let lock = NSLock()
    /// Most recently given back last.
    private var idle: [ConnectionKey: [KeptConnection]] = [:]
    private var counts: [ConnectionKey: ConnectionCounts] = [:]
    private var sweepPending = false

    init(idleLimit: Duration, pool: WorkerPool = .shared) {
        self.idleLimit = idleLimit
        self.pool = pool
    }

    /// An idle connection for `key` that is still open at the printer's end,
    /// or nil: then the caller opens one and says so with `opened`. Connections
    /// found closed on the way are closed here. Call on a pool worker.
    func lend(_ key: ConnectionKey) -> KeptConnection? {
        var stale: [KeptConnection] = []
        defer { stale.forEach { $0.close() } }
        return lock.withLock {
            let now = ContinuousClock.now
            while let connection = idle[key]?.popLast() {
                if now - connection.idleSince < idleLimit && connection.isOpenAndQuiet {
                    counts[key, default: .init()].reused += 1
                    return connection
                }
                stale.append(connection)
            }
            idle[key] = nil
            return nil
        }
    }

    /// Counts a connection opened because none could be lent.
    func opened(_ key: ConnectionKey) {
        lock.withLock { counts[key, default: .init()].opened += 1 }
    }

    /// Takes `connection` back after an exchange that read its whole reply,
    /// if it can carry another request; closes it otherwise.
    func giveBack(_ connection: KeptConnection) {
        guard connection.canCarryAnother else {
            connection.close()
            return
        }
        connection.detachTimeout()
        let sweepNeeded: Bool = lock.withLock {
            connection.idleSince = .now
            idle[connection.key, default: []].append(connection)
            defer { sweepPending = true }
            return !sweepPending
        }
        if sweepNeeded { scheduleSweep(after: idleLimit) }
    }

    /// How many connections were opened and lent again for `key`: for tests
    /// and diagnostics.
    func counts(for key: ConnectionKey) -> ConnectionCounts {
        lock.withLock { counts[key] ?? .init() }
    }

    /// Connections idle in the cache for `key` now.
    func idleCount(for key: ConnectionKey) -> Int {
        lock.withLock { idle[key]?.count ?? 0 }
    }

    // MARK: Closing what sits idle

    private func scheduleSweep(after delay: Duration) {
        Task.detached { [self] in
            try? await Task.sleep(for: delay)
            // Closing may write a TLS goodbye: on a worker, where SIGPIPE is blocked.
            pool.run { [self] in sweep() }
        }
    }

    /// Closes the connections idle for `idleLimit`, and comes back for the
    /// rest when the first of them reaches it.
    private func sweep() {
        let now = ContinuousClock.now
        let (expired, next): ([KeptConnection], ContinuousClock.Instant?) = lock.withLock {
            var expired: [KeptConnection] = []
            var next: ContinuousClock.Instant?
            for (key, connections) in idle {
                let (old, fresh) = (connections.filter { now - $0.idleSince >= idleLimit },
                                    connections.filter { now - $0.idleSince < idleLimit })
                expired += old
                idle[key] = fresh.isEmpty ? nil : fresh
                if let first = fresh.map(\.idleSince).min() { next = min(next ?? first, first) }
            }
            sweepPending = next != nil
            return (expired, next)
        }
        expired.forEach { $0.close() }
        if let next { scheduleSweep(after: next + idleLimit - now) }
    }
}

/// What the cache did for one printer endpoint.
struct ConnectionCounts: Sendable, Equatable {
    /// Connections opened because none idle could be lent.
    var opened = 0
    /// Exchanges that ran on a connection an earlier exchange left open.
    var reused = 0
}
