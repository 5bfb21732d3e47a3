import BenchSupport
import Foundation

/// A process's peak resident memory, read from wait4 by GNU time
/// (`/usr/bin/time -f %M`), which spawns it and reaps it by pid.
///
/// Why not wait4 here: a child's ru_maxrss starts from the high-water mark
/// of the memory it was spawned from (posix_spawn shares ours until the
/// exec), so a child of this 30-50 MB bench can never report less. GNU time
/// is about 1 MB, so under it the figure is the program's own peak.
struct PeakMemory: Sendable {
    let timeTool: String

    /// GNU time, or nil when it is not installed (scripts/install-deps.sh installs it).
    static func locate(folder: URL) -> PeakMemory? {
        let path = "/usr/bin/time"
        guard FileManager.default.isExecutableFile(atPath: path),
              let probe = try? PeakMemory(timeTool: path).run("/bin/true", [], folder: folder),
              probe.peakKiB > 0 else { return nil }
        return PeakMemory(timeTool: path)
    }

    struct Run: Sendable {
        /// ru_maxrss, KiB.
        var peakKiB: Int
        /// The program's standard output.
        var output: String
        /// Spawn to exit of GNU time, so about a millisecond more than the program's own.
        var elapsed: Duration
    }

    /// Runs `executable` under GNU time; a failed run is an error.
    func run(_ executable: String, _ arguments: [String], folder: URL) throws -> Run {
        let report = folder.appendingPathComponent("time-\(UUID().uuidString.prefix(8)).txt")
        defer { try? FileManager.default.removeItem(at: report) }
        // -o: the report goes to its own file, so the program's output stays its own.
        let run = try MeasuredProcess.mustSucceed(timeTool, ["-f", "%M", "-o", report.path, executable] + arguments,
                                                  folder: folder)
        // A failed program adds a "Command exited with ..." line before the figure.
        let text = (try? String(contentsOf: report, encoding: .utf8)) ?? ""
        guard let last = text.split(separator: "\n").last, let kib = Int(last.trimmingCharacters(in: .whitespaces)) else {
            throw BenchError("GNU time reported no peak for \(executable): \(text)")
        }
        return Run(peakKiB: kib, output: run.output, elapsed: run.elapsed)
    }
}
