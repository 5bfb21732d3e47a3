import BenchSupport
import Foundation

/// Issue 3's rendering targets, and the verdict the table prints beside a row.
enum RenderTargets {
    struct Target {
        let caseName: String
        /// Nil: the target holds at every resolution measured.
        let dpi: Int?
        let limit: Duration
    }

    /// Time from template + JSON to PWG bytes, per page.
    static let timing = [
        // Receipt heads are 203 dpi (8 dots/mm): the receipt's target is there;
        // its 300 dpi row is shown for comparison only.
        Target(caseName: RenderCase.longReceipt, dpi: 203, limit: .milliseconds(5)),
        Target(caseName: "boarding-pass", dpi: nil, limit: .milliseconds(10)),
        Target(caseName: "shipping-label", dpi: 300, limit: .milliseconds(15)),
    ]

    /// Peak resident memory of the whole `kioskprint render` process, in MiB.
    static let processPeakMiB = 64

    /// `target < 5 ms: met (p90 too)`, or nil when no target applies to the row.
    static func verdict(caseName: String, dpi: Int, sample: Sample) -> String? {
        guard let target = timing.first(where: { $0.caseName == caseName && ($0.dpi == nil || $0.dpi == dpi) }),
              let median = sample.median, let p90 = sample.percentile(0.9) else { return nil }
        let limit = "target < \(Millis.text(target.limit)) ms"
        let p90Note = p90 < target.limit ? "p90 too" : "p90 \(Millis.text(p90)) is not"
        return median < target.limit ? "\(limit): met (\(p90Note))" : "\(limit): NOT met (median \(Millis.text(median)))"
    }

    /// `target peak < 64 MB: met (max of 10: 31.2 MB)`.
    static func memoryVerdict(maxPeakKiB: Int?, runs: Int) -> String {
        guard let maxPeakKiB else { return "target peak < \(processPeakMiB) MB: not measured (no GNU time)" }
        let met = maxPeakKiB < processPeakMiB * 1024
        return "target peak < \(processPeakMiB) MB: \(met ? "met" : "NOT met") (max of \(runs): \(Megabytes.text(maxPeakKiB)))"
    }

    /// `gs x41`: how many times KioskPrint's median the alternative's median takes.
    static func ratio(_ alternative: Duration?, over kioskPrint: Duration?) -> String {
        guard let alternative, let kioskPrint, Millis.value(kioskPrint) > 0 else { return "gs x n/a" }
        let times = Millis.value(alternative) / Millis.value(kioskPrint)
        return "gs x" + String(format: times >= 10 ? "%.0f" : "%.1f", times)
    }
}
