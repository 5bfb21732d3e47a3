import Foundation

/// One thread that calls each IPP exchange's deadline backstop when it falls
/// due, instead of a task sleeping on a timer for every exchange.
///
/// A receipt makes about six exchanges (readiness, Validate-Job, Print-Job,
/// its looks), and each used to start a task that armed a dispatch timer,
/// only to be woken and cancelled a few milliseconds later when the printer
/// answered: GCD's timer thread made 15% of the agent's context switches. A
/// backstop here is an entry in a table; taking it out again wakes nothing,
/// and the thread, asleep until the earliest entry, finds nothing due if that
/// one went meanwhile. It starts with the first backstop and then sleeps
/// with no timer at all while no exchange is under way.
final class DeadlineWatch: @unchecked Sendable { // mutable state guarded by `condition`
    /// The process's watch, for every exchange.
    static let shared = DeadlineWatch()

    private struct Backstop {
        var due: ContinuousClock.Instant
        var fire: @Sendable () -> Void
    }

    private let condition = NSCondition()
    private var backstops: [UInt64: Backstop] = [:]
    private var nextID: UInt64 = 0
    private var started = false
    /// When the thread will look next; nil while it waits for a first backstop.
    private var looksAt: ContinuousClock.Instant?

    /// A backstop set for an exchange, to be taken out when it is over.
    struct Ticket: Sendable { fileprivate let id: UInt64 }

    /// Calls `fire` on the watch's thread once `due` has passed, unless the
    /// ticket is cancelled first.
    func add(due: ContinuousClock.Instant, fire: @escaping @Sendable () -> Void) -> Ticket {
        condition.lock()
        defer { condition.unlock() }
        nextID += 1
        backstops[nextID] = Backstop(due: due, fire: fire)
        if !started {
            started = true
            let thread = Thread { [self] in watch() }
            thread.name = "kioskprint-deadlines"
            thread.start()
        } else if looksAt.map({ due < $0 }) ?? true {
            condition.signal()  // due before the thread's next look
        }
        return Ticket(id: nextID)
    }

    /// Takes a backstop out; it will not fire (unless it is firing already).
    func cancel(_ ticket: Ticket) {
        condition.lock()
        backstops[ticket.id] = nil
        condition.unlock()
    }

    /// Backstops set and not yet fired or cancelled: what the tests look at.
    var pending: Int {
        condition.lock()
        defer { condition.unlock() }
        return backstops.count
    }

    private func watch() {
        condition.lock()
        while true {
            let now = ContinuousClock.now
            let due = backstops.filter { $0.value.due <= now }
            if !due.isEmpty {
                for id in due.keys { backstops[id] = nil }
                condition.unlock()
                for backstop in due.values { backstop.fire() }
                condition.lock()
                continue
            }
            if let earliest = backstops.values.map(\.due).min() {
                looksAt = earliest
                _ = condition.wait(until: Date(timeIntervalSinceNow: ExchangeControl.seconds(earliest - now)))
            } else {
                looksAt = nil
                condition.wait()
            }
        }
    }
}
