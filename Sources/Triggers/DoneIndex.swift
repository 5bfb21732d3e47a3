import Synchronization

/// The files in a watched folder's `done/`, oldest finish first, kept in
/// memory so that trimming after each finished file removes the oldest
/// without listing the folder.
///
/// Why: once `done/` holds its limit (1,000 files by default: a kiosk's
/// second day), trimming by listing meant reading and stat-ing every file in
/// it after every receipt: with 1,000 files there, 10.7 and 11.1 ms of the
/// agent's CPU per folder receipt, against 9.2 and 9.0 with this index
/// (two alternating runs on the 2-core machine).
///
/// The folder is listed once, at the first trim, and again after every
/// `limit` finishes, so that files another agent or an operator added or
/// removed are seen within one turn of the folder: listing costs O(limit)
/// once per `limit` receipts.
final class DoneIndex: Sendable {
    private struct State {
        /// Oldest first; nil until the first listing.
        var names: [EntryName]?
        var finishedSinceListing = 0
    }

    private let state = Mutex(State())
    let limit: Int

    init(limit: Int) { self.limit = limit }

    /// Records that `added` was just moved into `done` (and stamped with the
    /// time), then removes the oldest files beyond the limit. Another agent
    /// may trim at the same time, so an entry already gone is fine; a folder
    /// inside `done/` is counted but never removed.
    func finished(_ added: EntryName, in done: Directory) {
        let excess: [EntryName] = state.withLock { state in
            if state.names == nil || state.finishedSinceListing >= limit {
                // A failed listing leaves the index empty: the next finish lists again.
                state.names = Self.oldestFirst(in: done)
                state.finishedSinceListing = state.names == nil ? limit : 0
            } else {
                state.names?.append(added)
                state.finishedSinceListing += 1
            }
            guard let count = state.names?.count, count > limit else { return [] }
            let oldest = Array(state.names![..<(count - limit)])
            state.names!.removeFirst(count - limit)
            return oldest
        }
        for name in excess where done.kind(of: name) != .directory { done.remove(name) }
    }

    /// Every entry of `done`, by modification time (the finish stamp), then name.
    private static func oldestFirst(in done: Directory) -> [EntryName]? {
        guard let names = try? done.list() else { return nil }
        let dated = names.compactMap { name in done.modified(name).map { (name: name, time: $0) } }
        return dated.sorted { ($0.time, $0.name) < ($1.time, $1.name) }.map(\.name)
    }
}
