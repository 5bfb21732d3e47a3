import Foundation
import Synchronization
@testable import HTTPAPI
import PrintModel
import Spooler
import Store
import Testing

/// An event stream cannot grow the agent: a client that stops reading holds
/// the journal's bounded buffer and no more, and learns of what it lost; a
/// token holds a bounded number of streams, and a revoked token's end.
@Suite struct EventFeedTests {
    static func event(_ number: Int) -> SpoolerEvent {
        .setAside(JobID(Int64(number)), role: try! Role("receipt"), reason: "test \(number)")
    }

    @Test func aClientThatStopsReadingHoldsTheBufferAndGetsAGap() async {
        let journal = EventJournal(capacity: 100, subscriberBuffer: 4)
        let subscription = journal.subscribe(after: nil)
        var feed = EventFeed(subscription: subscription).makeAsyncIterator()
        journal.publish(Self.event(1))
        guard case .entry(let first)? = await feed.next() else { Issue.record("no first event"); return }
        #expect(first.number == 1)
        // The client stops reading while 1,000 events happen.
        for number in 2...1_001 { journal.publish(Self.event(number)) }
        guard case .gap? = await feed.next() else { Issue.record("no gap after the lost events"); return }
        var numbers: [Int] = []
        for _ in 1...4 { if case .entry(let entry)? = await feed.next() { numbers.append(entry.number) } }
        #expect(numbers == [998, 999, 1_000, 1_001], "only the newest buffer's worth was kept")
        subscription.end()
        #expect(await feed.next() == nil)
    }

    @Test func missedEventsComeFirstAndAnUnknownIDIsAGap() async {
        let journal = EventJournal(capacity: 3, subscriberBuffer: 8)
        for number in 1...5 { journal.publish(Self.event(number)) }
        let resumed = journal.subscribe(after: "0.1")
        var feed = EventFeed(subscription: resumed).makeAsyncIterator()
        guard case .gap? = await feed.next() else { Issue.record("an id of another run is a gap"); return }
        var numbers: [Int] = []
        for _ in 1...3 { if case .entry(let entry)? = await feed.next() { numbers.append(entry.number) } }
        #expect(numbers == [3, 4, 5])
        resumed.end()
    }

    @Test func aTokenHoldsFourStreamsAndARevokedTokensStreamsEnd() throws {
        let streams = OpenStreams(perToken: 4)
        let till = APIToken(id: 1, name: "till", scopes: [.read], createdAt: Date(), lastUsedAt: nil)
        let screen = APIToken(id: 2, name: "screen", scopes: [.read], createdAt: Date(), lastUsedAt: nil)
        let ended = EndCounter()
        var keys: [UUID] = []
        for _ in 1...4 {
            let key = try streams.admit(till)
            streams.attach(key, end: { ended.add() })
            keys.append(key)
        }
        #expect(throws: APIProblem.self) { try streams.admit(till) }
        let other = try streams.admit(screen)
        streams.attach(other, end: { ended.add() })
        streams.release(keys[0])
        _ = try streams.admit(till)  // a place was freed
        streams.endAll(except: [2])
        #expect(ended.count == 3, "the till's three attached streams ended, the screen's did not")
        #expect(!streams.isEmpty)
    }
}

/// Counts calls from `@Sendable` closures.
final class EndCounter: Sendable {
    private let calls = Mutex(0)
    func add() { calls.withLock { $0 += 1 } }
    var count: Int { calls.withLock { $0 } }
}
