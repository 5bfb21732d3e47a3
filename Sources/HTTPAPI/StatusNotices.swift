import Foundation
import Synchronization

/// What the status page's buttons did, kept for the page that follows: the
/// button's redirect carries a notice's random id (`/?done=ID`), never its
/// text, so a link made elsewhere cannot make the page show words the agent
/// did not write. The last 32 are kept, in memory only.
final class StatusNotices: Sendable {
    private let kept = Mutex<[(id: String, text: String)]>([])
    static let capacity = 32

    /// Keeps `text`; returns the id the page is given.
    func add(_ text: String) -> String {
        let id = UUID().uuidString.lowercased()
        kept.withLock { kept in
            kept.append((id, text))
            if kept.count > Self.capacity { kept.removeFirst(kept.count - Self.capacity) }
        }
        return id
    }

    /// The notice kept under `id`; nil for an id the agent did not give (or no longer keeps).
    func text(for id: String) -> String? {
        kept.withLock { kept in kept.last { $0.id == id }?.text }
    }
}
