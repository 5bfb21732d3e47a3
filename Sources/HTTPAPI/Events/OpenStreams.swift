import Foundation
import Store
import Synchronization

/// The event streams open now, by token: at most `perToken` for each, and,
/// while any is open, the tokens are looked at every second so that a
/// revoked token's streams end within that second (a stream is one long
/// answer: the token was checked only when it began).
final class OpenStreams: Sendable {
    private struct Stream {
        var token: APIToken
        var end: (@Sendable () -> Void)?
    }

    let perToken: Int
    private let open = Mutex<[UUID: Stream]>([:])

    init(perToken: Int = 4) { self.perToken = perToken }

    /// A place for one more stream of `token`, or a 429 naming the limit.
    func admit(_ token: APIToken) throws -> UUID {
        try open.withLock { open in
            let held = open.values.filter { $0.token.id == token.id }.count
            guard held < perToken else {
                var problem = APIProblem(.tooManyRequests, "The token \"\(token.name)\" has \(held) event streams open, the most "
                    + "one token may. Close one (a page or app that reconnects should close its old stream first), then try again.")
                problem.headers[.retryAfter] = "5"
                throw problem
            }
            let key = UUID()
            open[key] = Stream(token: token)
            return key
        }
    }

    /// How the stream behind `key` is ended, once it exists.
    func attach(_ key: UUID, end: @escaping @Sendable () -> Void) {
        let revokedMeanwhile = open.withLock { open -> Bool in
            guard open[key] != nil else { return true }
            open[key]?.end = end
            return false
        }
        if revokedMeanwhile { end() }
    }

    /// The stream behind `key` ended.
    func release(_ key: UUID) {
        _ = open.withLock { $0.removeValue(forKey: key) }
    }

    /// Ends every stream whose token is not among `valid` (token ids).
    func endAll(except valid: Set<Int64>) {
        let ending = open.withLock { open -> [@Sendable () -> Void] in
            let revoked = open.filter { !valid.contains($0.value.token.id) }
            for key in revoked.keys { open.removeValue(forKey: key) }
            return revoked.values.compactMap(\.end)
        }
        for end in ending { end() }
    }

    var isEmpty: Bool { open.withLock { $0.isEmpty } }

    /// Every second while streams are open, ends those of revoked tokens; returns when cancelled.
    func watch(_ store: KioskStore) async {
        while !Task.isCancelled {
            do { try await Task.sleep(for: .seconds(1)) } catch { return }
            guard !isEmpty, let tokens = try? await store.tokens() else { continue }
            endAll(except: Set(tokens.map(\.id)))
        }
    }
}
