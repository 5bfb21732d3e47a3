import Synchronization

/// The oldest files in a watched folder's `done/` and how many it holds,
/// kept in memory so that trimming after each finished file removes the
/// oldest without listing the folder.
///
/// Why: once `done/` holds its limit (1,000 files by default: a kiosk's
/// second day), trimming by listing meant reading and stat-ing every file in
/// it after every receipt: with 1,000 files there, 10.7 and 11.1 ms of the
/// agent's CPU per folder receipt, against 9.2 and 9.0 with this index
/// (two alternating runs on the 2-core machine).
///
/// The folder is listed at the first finish, again after every `limit`
/// finishes (so files another agent or an operator added or removed are
/// seen within one turn of the folder), and when the names kept run out.
/// It keeps at most `window` names, the oldest: all of a default `done/`,
/// and at most a few hundred kilobytes of names for the largest limit a
/// configuration allows (1,000,000), which is then listed once per `window`
/// finishes.
final class DoneIndex: Sendable {
    private struct State {
        /// The oldest files in `done/`, oldest first: all of them while they
        /// fit in `window`, else the oldest `window`.
        var oldest: [EntryName] = []
        /// How many files `done/` holds, as far as this index knows; nil
        /// until it has been listed.
        var count: Int?
        var finishedSinceListing = 0
    }

    private let state = Mutex(State())
    let limit: Int
    let window: Int

    init(limit: Int, window: Int = 4096) {
        self.limit = limit
        self.window = max(1, window)
    }

    /// Records that `added` was just moved into `done` (and stamped with the
    /// time), then removes the oldest files beyond the limit. Another agent
    /// may trim at the same time, so an entry already gone is fine; a folder
    /// inside `done/` is counted but never removed.
    func finished(_ added: EntryName, in done: Directory) {
        let excess: [EntryName] = state.withLock { state in
            // Each finish leaves `done/` at the limit at most, so the next
            // needs one name to remove at most: list again if none is kept.
            guard let count = state.count, state.finishedSinceListing < limit,
                  count < limit || !state.oldest.isEmpty || state.oldest.count == count else {
                return Self.list(done, into: &state, limit: limit, window: window)
            }
            // Kept whole so far: the new file, the newest, goes last.
            if state.oldest.count == count && count < window { state.oldest.append(added) }
            state.finishedSinceListing += 1
            guard count + 1 > limit else {
                state.count = count + 1
                return []
            }
            state.count = count
            return [state.oldest.removeFirst()]
        }
        for name in excess where done.kind(of: name) != .directory { done.remove(name) }
    }

    /// Lists `done`, keeps its oldest names beyond those to remove, and
    /// returns those to remove (the oldest, down to the limit). A failed
    /// listing keeps nothing: the next finish lists again.
    private static func list(_ done: Directory, into state: inout State, limit: Int, window: Int) -> [EntryName] {
        guard let names = try? done.list() else {
            state = State()
            return []
        }
        let dated = names.compactMap { name in done.modified(name).map { (name: name, time: $0) } }
        let oldestFirst = dated.sorted { ($0.time, $0.name) < ($1.time, $1.name) }.map(\.name)
        let excess = max(0, oldestFirst.count - limit)
        let kept = oldestFirst[excess...]
        state = State(oldest: Array(kept.prefix(window)), count: kept.count, finishedSinceListing: 0)
        return Array(oldestFirst[..<excess])
    }
}
