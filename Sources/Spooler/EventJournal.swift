import Foundation
import Synchronization

/// The spooler's recent events, numbered, for the HTTP API's live stream
/// (`GET /v1/events`): a ring of the last `capacity`, so that a client that
/// reconnects with `Last-Event-ID` gets what it missed, and a stream per
/// subscriber. Publishing never waits: a subscriber that does not keep up
/// loses its oldest undelivered events (its buffer is bounded), never the
/// spooler's time.
public final class EventJournal: Sendable {
    /// One event with its place in the journal.
    public struct Entry: Sendable {
        /// `BOOT.N`: N counts from 1 in this agent process; BOOT tells one run from the next.
        public let id: String
        public let number: Int
        public let event: SpoolerEvent
    }

    /// What a subscriber gets first: the events after its Last-Event-ID, or
    /// word that some were lost (its id is from an earlier run of the agent,
    /// or older than the journal keeps), then the live ones.
    public struct Subscription: Sendable {
        public let missed: [Entry]
        /// True when events were lost: the client should read the jobs it follows again.
        public let gap: Bool
        /// The live events, at most `subscriberBuffer` waiting; a subscriber
        /// that falls further behind loses the oldest, which shows as a jump
        /// in the entries' numbers.
        public let live: AsyncStream<Entry>
        /// Ends `live` now (its reader gets nil): the caller's right to it is gone.
        public let end: @Sendable () -> Void
    }

    private struct State {
        var next = 1
        var recent: [Entry] = []
        var subscribers: [UUID: AsyncStream<Entry>.Continuation] = [:]
        var closed = false
    }

    public let capacity: Int
    /// Events a slow subscriber may have waiting before its oldest are dropped.
    public let subscriberBuffer: Int
    private let boot: String
    private let state = Mutex(State())

    public init(capacity: Int = 1_000, subscriberBuffer: Int = 256) {
        self.capacity = capacity
        self.subscriberBuffer = subscriberBuffer
        boot = String(UInt64(Date().timeIntervalSince1970 * 1000), radix: 36)
    }

    /// Records an event and hands it to every subscriber.
    public func publish(_ event: SpoolerEvent) {
        state.withLock { state in
            let entry = Entry(id: "\(boot).\(state.next)", number: state.next, event: event.withoutJobData)
            state.next += 1
            state.recent.append(entry)
            if state.recent.count > capacity { state.recent.removeFirst(state.recent.count - capacity) }
            for continuation in state.subscribers.values { continuation.yield(entry) }
        }
    }

    /// A subscription starting after `lastEventID` (nil: only what happens
    /// from now). `onEnd` is called once when its live stream ends, for
    /// whatever reason: the reader went away, `end`, or the journal closed.
    public func subscribe(after lastEventID: String?, onEnd: (@Sendable () -> Void)? = nil) -> Subscription {
        let (stream, continuation) = AsyncStream<Entry>.makeStream(bufferingPolicy: .bufferingNewest(subscriberBuffer))
        let key = UUID()
        let (missed, gap) = state.withLock { state -> ([Entry], Bool) in
            if state.closed { continuation.finish() } else { state.subscribers[key] = continuation }
            guard let lastEventID else { return ([], false) }
            let parts = lastEventID.split(separator: ".")
            guard parts.count == 2, parts[0] == boot, let number = Int(parts[1]) else { return (state.recent, true) }
            let missed = state.recent.filter { $0.number > number }
            let oldestKept = state.recent.first?.number ?? state.next
            return (missed, number + 1 < oldestKept)
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.subscribers.removeValue(forKey: key) }
            onEnd?()
        }
        return Subscription(missed: missed, gap: gap, live: stream, end: { continuation.finish() })
    }

    /// Ends every subscriber's stream, and any that subscribe later: the agent is stopping.
    public func close() {
        let subscribers = state.withLock { state in
            state.closed = true
            defer { state.subscribers.removeAll() }
            return Array(state.subscribers.values)
        }
        for continuation in subscribers { continuation.finish() }
    }
}
