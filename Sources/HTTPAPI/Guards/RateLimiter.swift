import Foundation
import Synchronization

/// Requests a second per token: a token bucket per token name, refilled at
/// `perSecond` and holding up to twice that (a burst after a quiet spell).
/// A POS stuck in a retry loop, or a leaked token, gets 429 and a
/// `Retry-After`, instead of filling the queue or the agent's time; other
/// tokens are not affected. In memory: it starts full with the agent.
package final class RateLimiter: Sendable {
    private struct Bucket {
        var tokens: Double
        var refilled: ContinuousClock.Instant
    }

    let perSecond: Double
    let burst: Double
    private let buckets = Mutex<[String: Bucket]>([:])

    package init(perSecond: Int) {
        self.perSecond = Double(perSecond)
        burst = Double(perSecond * 2)
    }

    /// Takes one request from `caller`'s bucket; nil if it may go, else the seconds until it may.
    func take(for caller: String, at now: ContinuousClock.Instant = .now) -> Int? {
        buckets.withLock { buckets in
            var bucket = buckets[caller] ?? Bucket(tokens: burst, refilled: now)
            let elapsed = now - bucket.refilled
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            bucket.tokens = min(burst, bucket.tokens + seconds * perSecond)
            bucket.refilled = now
            defer { buckets[caller] = bucket }
            guard bucket.tokens >= 1 else { return max(1, Int(((1 - bucket.tokens) / perSecond).rounded(.up))) }
            bucket.tokens -= 1
            return nil
        }
    }
}
