import BenchSupport
import Foundation

/// How a lab section reports, the same for each: the machine and its load
/// above, the section's blocks (its table, then any further table), how long
/// it took and the load at the end below. An error goes to standard error
/// with exit status 1. The body's own `defer`s (the lab's stop) run before
/// the process exits, which a plain `exit` inside the body would skip.
enum BenchReport {
    /// What a section measured.
    struct Outcome {
        /// Printed in order, a blank line between them.
        var blocks: [String]
        /// The units the blocks use, e.g. "ms = milliseconds, med = median".
        var legend: String
        /// False exits with status 1 after printing: the run was incomplete.
        var passed = true
    }

    /// Runs `body` as section `name` (`kioskprint-bench NAME`) and exits.
    static func run(_ name: String, body: () async throws -> Outcome) async -> Never {
        let facts = MachineFacts.current()
        let load = MachineFacts.loadAverage()
        let began = ContinuousClock.now
        let outcome: Outcome
        do {
            outcome = try await body()
        } catch {
            FileHandle.standardError.write(Data("kioskprint-bench \(name): \(error)\n".utf8))
            exit(1)
        }
        print(facts.text + "  load \(load) (1 min, at start)")
        print("")
        print(outcome.blocks.joined(separator: "\n\n"))
        print("Measured in \(Millis.text(ContinuousClock.now - began)) ms with the lab's start and stop, load "
            + "\(MachineFacts.loadAverage()) at the end; " + outcome.legend + ".")
        exit(outcome.passed ? 0 : 1)
    }
}
