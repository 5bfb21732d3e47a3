import Synchronization

/// Hashes of byte arrays, remembered by the storage the bytes live in: the
/// same logo is handed to every receipt's layout as the same array (a
/// built-in's embedded bytes, a cached image's pixels), and hashing its
/// bytes again for each cache lookup cost about 3% of drawing a receipt.
///
/// An array shares its storage with its copies and is never changed in
/// place while a copy is held, so an array whose storage is one held here
/// has the bytes hashed then. Bounded by count and bytes, since a held
/// array stays in memory; a miss simply hashes.
final class StorageFingerprints: Sendable {
    let capacity: Int
    let budget: Int
    private let known = Mutex<[(bytes: [UInt8], hash: Int)]>([])

    init(capacity: Int, budget: Int) {
        self.capacity = capacity
        self.budget = budget
    }

    /// `bytes.hashValue`, from memory when the same storage was hashed before.
    func hash(of bytes: [UInt8]) -> Int {
        if let hash = known.withLock({ $0.first { Self.sharesStorage($0.bytes, bytes) }?.hash }) { return hash }
        let hash = bytes.hashValue
        guard bytes.count <= budget else { return hash }
        known.withLock { known in
            var held = known.reduce(bytes.count) { $0 + $1.bytes.count }
            while !known.isEmpty, known.count >= capacity || held > budget {
                held -= known.removeFirst().bytes.count
            }
            known.append((bytes, hash))
        }
        return hash
    }

    /// True when `a` and `b` are the same storage (and so the same bytes).
    static func sharesStorage(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        return a.withUnsafeBufferPointer { first in b.withUnsafeBufferPointer { first.baseAddress == $0.baseAddress } }
    }
}
