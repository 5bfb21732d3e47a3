import BenchSupport
import Foundation

/// Several runs of one whole process: wall times from runs spawned directly,
/// peaks from as many runs under GNU time (`PeakMemory`).
struct ProcessRuns: Sendable {
    var wall: Sample
    /// KiB, smallest first; empty when GNU time is missing.
    var peaks: [Int]

    var medianPeakKiB: Int? { peaks.isEmpty ? nil : peaks[peaks.count / 2] }
    var maxPeakKiB: Int? { peaks.last }

    /// `count` timed runs and `count` measured for memory, after one
    /// unmeasured run (which warms the page cache and fontconfig's cache, as
    /// on a kiosk that has printed before). Timed apart, so that GNU time's
    /// own start-up is not in the wall time.
    static func measure(_ executable: String, _ arguments: [String], count: Int, peak: PeakMemory?,
                        folder: URL) throws -> ProcessRuns {
        _ = try MeasuredProcess.mustSucceed(executable, arguments, folder: folder)
        let times = try (0..<count).map { _ in
            try MeasuredProcess.mustSucceed(executable, arguments, folder: folder).elapsed
        }
        let peaks = try peak.map { tool in
            try (0..<count).map { _ in try tool.run(executable, arguments, folder: folder).peakKiB }
        } ?? []
        return ProcessRuns(wall: Sample(times), peaks: peaks.sorted())
    }

    /// `med 180 / max 195 ms, peak 41.2 MB`.
    var summary: String {
        "med \(Millis.text(wall.median)) / max \(Millis.text(wall.max)) ms, peak " + Megabytes.text(medianPeakKiB)
    }
}
