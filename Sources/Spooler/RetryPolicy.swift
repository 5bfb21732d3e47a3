import Foundation

/// How long to wait before trying a printer again: exponential backoff with
/// jitter, so that several kiosks behind one busy printer do not retry in step.
public struct RetryPolicy: Hashable, Sendable {
    /// The first wait.
    public var initial: Duration
    /// Each wait is this many times the one before...
    public var factor: Double
    /// ...up to this.
    public var maximum: Duration
    /// A wait is drawn from (1 - jitter ... 1 + jitter) times its nominal length.
    public var jitter: Double

    public init(initial: Duration = .milliseconds(250), factor: Double = 2, maximum: Duration = .seconds(30),
                jitter: Double = 0.2) {
        self.initial = initial; self.factor = factor; self.maximum = maximum; self.jitter = jitter
    }

    /// The nominal wait before attempt `attempt + 1` (attempt 0 is the first retry).
    public func nominalDelay(afterAttempt attempt: Int) -> Duration {
        let seconds = Self.seconds(initial) * pow(factor, Double(max(0, attempt)))
        return .milliseconds(Int(min(seconds, Self.seconds(maximum)) * 1000))
    }

    /// The wait with jitter, `unit` drawn from 0..<1 (a parameter, so tests can pin it).
    public func delay(afterAttempt attempt: Int, unit: Double = Double.random(in: 0..<1)) -> Duration {
        let nominal = Self.seconds(nominalDelay(afterAttempt: attempt))
        let scaled = nominal * (1 - jitter + 2 * jitter * unit)
        return .milliseconds(Int(scaled * 1000))
    }

    static func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
