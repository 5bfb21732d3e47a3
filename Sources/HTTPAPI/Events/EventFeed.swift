import Spooler

/// One client's events in the order it reads them: word of a gap first when
/// its `Last-Event-ID` is lost, the events it missed, then the live ones,
/// with a gap wherever it fell so far behind that the journal dropped some
/// (the numbers jump). Read straight from the journal's bounded buffer, so a
/// client that stops reading holds at most that buffer, never more.
struct EventFeed: AsyncSequence, Sendable {
    enum Item: Sendable {
        /// Some events were lost; the client should read the jobs it follows again.
        case gap
        case entry(EventJournal.Entry)
    }

    let subscription: EventJournal.Subscription

    func makeAsyncIterator() -> Iterator {
        Iterator(pending: (subscription.gap ? [.gap] : []) + subscription.missed.map(Item.entry),
                 live: subscription.live.makeAsyncIterator(), last: subscription.missed.last?.number)
    }

    struct Iterator: AsyncIteratorProtocol {
        var pending: [Item]
        var live: AsyncStream<EventJournal.Entry>.Iterator
        /// The number of the last entry handed out, to see a jump.
        var last: Int?

        mutating func next() async -> Item? {
            if !pending.isEmpty { return pending.removeFirst() }
            guard let entry = await live.next() else { return nil }
            defer { last = entry.number }
            if let last, entry.number > last + 1 {
                pending.append(.entry(entry))
                return .gap
            }
            return .entry(entry)
        }
    }
}
