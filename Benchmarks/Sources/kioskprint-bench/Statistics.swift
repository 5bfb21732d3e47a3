import Foundation

/// The order statistics the table reports for one set of timings.
///
/// Percentiles are nearest-rank, so each is a time that was really measured;
/// the median of an even count is the mean of the middle two, as usual.
struct Sample: Sendable {
    /// The timings, fastest first.
    let sorted: [Duration]

    init(_ values: [Duration]) { sorted = values.sorted() }

    var count: Int { sorted.count }

    var median: Duration? {
        guard !sorted.isEmpty else { return nil }
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// The smallest timing that at least `fraction` of the timings do not exceed.
    func percentile(_ fraction: Double) -> Duration? {
        guard !sorted.isEmpty else { return nil }
        let rank = Int((fraction * Double(sorted.count)).rounded(.up))
        return sorted[Swift.min(Swift.max(rank, 1), sorted.count) - 1]
    }

    var max: Duration? { sorted.last }

    /// `med 812 / max 905`, in milliseconds, with how many are missing when some are.
    func medianAndMax(missing: Int = 0) -> String {
        guard !sorted.isEmpty else { return "none measured" + Self.missingNote(missing) }
        return "med \(Millis.text(median)) / max \(Millis.text(max))" + Self.missingNote(missing)
    }

    /// `med 2.10 / p90 2.45 / p99 3.10 / max 9.80`, in milliseconds.
    func spread(missing: Int = 0) -> String {
        guard !sorted.isEmpty else { return "none measured" + Self.missingNote(missing) }
        return "med \(Millis.text(median)) / p90 \(Millis.text(percentile(0.9)))"
            + " / p99 \(Millis.text(percentile(0.99))) / max \(Millis.text(max))" + Self.missingNote(missing)
    }

    private static func missingNote(_ missing: Int) -> String { missing == 0 ? "" : " (\(missing) missing)" }
}

/// Milliseconds as the table shows them: more decimals for smaller figures,
/// so a 2 ms contact and a 1200 ms discovery are both read at their precision.
enum Millis {
    static func value(_ duration: Duration) -> Double {
        let parts = duration.components
        return Double(parts.seconds) * 1000 + Double(parts.attoseconds) / 1e15
    }

    static func text(_ duration: Duration?) -> String {
        guard let duration else { return "n/a" }
        let milliseconds = value(duration)
        let magnitude = abs(milliseconds)
        let decimals = magnitude < 10 ? 2 : magnitude < 100 ? 1 : 0
        return String(format: "%.\(decimals)f", milliseconds)
    }
}
