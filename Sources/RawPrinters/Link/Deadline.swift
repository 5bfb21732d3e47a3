extension ContinuousClock.Instant {
    /// Milliseconds from now until this instant, rounded up so a wait never
    /// ends just short of it; 0 once it has passed. For poll(2).
    var pollTimeout: Int32 {
        let left = self - .now
        guard left > .zero else { return 0 }
        let (seconds, attoseconds) = left.components
        let milliseconds = seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        return Int32(clamping: milliseconds)
    }

    /// Seconds from `start` to this instant, for messages ("within 5 s").
    func seconds(since start: ContinuousClock.Instant) -> Double {
        (self - start).seconds
    }
}

extension Duration {
    /// The length in seconds, for messages and rates.
    var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
