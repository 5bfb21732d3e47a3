@testable import HTTPAPI
import Testing

/// The per-token rate limit, with the clock given: no waiting, no timing.
@Suite struct RateLimiterTests {
    @Test func aBurstOfTwiceTheRateIsLetThroughThenOnePerInterval() {
        let limiter = RateLimiter(perSecond: 2)
        let start = ContinuousClock.now
        for _ in 1...4 { #expect(limiter.take(for: "till", at: start) == nil) }
        #expect(limiter.take(for: "till", at: start) == 1, "the fifth at once waits a second")
        #expect(limiter.take(for: "other", at: start) == nil, "another token has its own bucket")
        #expect(limiter.take(for: "till", at: start + .milliseconds(499)) != nil)
        #expect(limiter.take(for: "till", at: start + .milliseconds(1_100)) == nil, "refilled at 2 a second")
        #expect(limiter.take(for: "till", at: start + .seconds(100)) == nil)
        for _ in 1...3 { #expect(limiter.take(for: "till", at: start + .seconds(100)) == nil) }
        #expect(limiter.take(for: "till", at: start + .seconds(100)) != nil, "a long quiet spell refills only up to the burst")
    }
}
