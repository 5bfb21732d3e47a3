import Synchronization

/// A cache bounded by the bytes its values hold as well as by their count:
/// a few large images must not grow the process as far as many small ones
/// would. Past either bound the oldest entries go first; a value larger
/// than the whole budget is not kept at all.
final class ByteBoundedCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private struct Contents {
        var values: [Key: (value: Value, bytes: Int)] = [:]
        /// Keys, oldest first.
        var order: [Key] = []
        var bytes = 0
    }

    let capacity: Int
    let budget: Int
    private let contents = Mutex(Contents())

    init(capacity: Int, budget: Int) {
        self.capacity = capacity
        self.budget = budget
    }

    subscript(key: Key) -> Value? { contents.withLock { $0.values[key]?.value } }

    /// The bytes held now, for tests and reports.
    var bytesHeld: Int { contents.withLock { $0.bytes } }

    /// Keeps `value`, which holds `bytes`, evicting the oldest entries to make room.
    func insert(_ value: Value, bytes: Int, for key: Key) {
        guard bytes <= budget else { return }
        contents.withLock { contents in
            if let old = contents.values.removeValue(forKey: key) {
                contents.bytes -= old.bytes
                contents.order.removeAll { $0 == key }
            }
            while !contents.order.isEmpty, contents.order.count >= capacity || contents.bytes + bytes > budget {
                let oldest = contents.order.removeFirst()
                contents.bytes -= contents.values.removeValue(forKey: oldest)?.bytes ?? 0
            }
            contents.values[key] = (value, bytes)
            contents.order.append(key)
            contents.bytes += bytes
        }
    }
}
