import Foundation
import IPP
import PrintModel
import Rendering
import Simulator
import Testing

/// Printers and documents for the job tests.
enum JobLab {
    /// A recording 80 mm receipt printer of its own (the shared lab's printers
    /// stay untouched), named uniquely. Stop it with `retire`.
    static func recordingPrinter(_ label: String, delay: Duration = .zero, exitStatus: Int32 = 0,
                                 reportsMediaEmpty: Bool = false) async throws -> RunningPrinter {
        let lab = try await PrinterLab.shared()
        let base = SimulatedPrinter.receipt80mm.named("\(label) \(try Loopback.freePort())")
        return try await lab.startPrinter(.recording(base, delay: delay, exitStatus: exitStatus,
                                                     reportsMediaEmpty: reportsMediaEmpty))
    }

    /// A valid PWG raster document: `pages` blank 80 mm (639-dot) pages at 203 dpi.
    static func raster(pages: Int = 1) throws -> Data {
        let page = RasterPage(blankWidth: 639, height: 400, resolution: Resolution(203), format: .black1)
        return try RasterWriter(format: .pwg).encode(Array(repeating: page, count: pages))
    }

    /// A receipt job: PWG raster, cut at `cutLength` hundredths of a mm, trimmed after each page.
    static func receipt(_ name: String, pages: Int = 1, cutLength: Int = 12345) throws -> PrintJobRequest {
        PrintJobRequest(document: try raster(pages: pages), documentFormat: "image/pwg-raster", jobName: name,
                        mediaCol: .init(xDimension: 8000, yDimension: cutLength, source: "main-roll"),
                        finishings: [PrintJobRequest.Finishing.trimAfterPages])
    }

    /// A name no other test uses, for finding a job again by its name.
    static func marker() -> String { "kp-" + UUID().uuidString.prefix(8).lowercased() }

    /// Asks for the job's status until `condition` holds, every 50 ms; records
    /// an issue and returns the last status if `limit` passes first. The wait
    /// ends on the printer's answer; the limit only bounds a failure.
    static func status(of jobID: Int, at uri: String, within limit: Duration = .seconds(15),
                       sourceLocation: SourceLocation = #_sourceLocation,
                       until condition: (PrinterJobStatus) -> Bool) async throws -> PrinterJobStatus {
        var last: PrinterJobStatus?
        do {
            try await pollUntil("job \(jobID) at \(uri)", within: limit, every: .milliseconds(50)) {
                last = try await PrinterJobs.status(of: jobID, at: uri)
                return condition(last!)
            }
        } catch LabError.timedOut {
            let seen = last.map { "\($0.state) \($0.stateReasons)" } ?? "unknown"
            Issue.record("job \(jobID) at \(uri) is still \(seen) after \(limit)", sourceLocation: sourceLocation)
        }
        return try #require(last, sourceLocation: sourceLocation)
    }

    /// The printer's state, asked for until `condition` holds (every 50 ms, at most `limit`).
    static func printerStatus(_ uri: String, within limit: Duration = .seconds(10),
                              sourceLocation: SourceLocation = #_sourceLocation,
                              until condition: (PrinterStatus) -> Bool) async throws -> PrinterStatus {
        var last: PrinterStatus?
        do {
            try await pollUntil("\(uri)'s state", within: limit, every: .milliseconds(50)) {
                last = try await PrinterContact.state(uri: uri)
                return condition(last!)
            }
        } catch LabError.timedOut {
            let seen = last.map { "\($0.state) \($0.reasons)" } ?? "unknown"
            Issue.record("\(uri) is still \(seen) after \(limit)", sourceLocation: sourceLocation)
        }
        return try #require(last, sourceLocation: sourceLocation)
    }
}
