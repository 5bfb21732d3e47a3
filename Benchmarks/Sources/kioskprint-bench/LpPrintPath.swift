import BenchSupport
import Foundation
import IPP
import PrintModel
import Rendering
import Simulator
import Templates

/// Section 1, the other side: the receipt as a PDF drawn for the same media,
/// printed with `lp` through a private cupsd with a driverless queue to a
/// recording receipt printer of its own. Each job is timed from just before
/// lp is spawned to the moment cupsd reports the job completed (asked with
/// Get-Job-Attributes every 10 ms), and to the printer's recording of it.
struct LpPrintPath: Sendable {
    /// One `lp` job followed to its end.
    struct Attempt: Sendable {
        /// cupsd's job id.
        var jobID: Int
        var lpExit: Duration
        var toEnd: Duration
        var toRecorded: Duration?
        var state: PrinterJobState
        var message: String?
        var delivered: RecordedMedia?
        var documentFormat: String?
    }

    var cupsVersion: String
    /// The `-o` values: the one timed (exact size) and the one the roll printer refuses.
    var pageSizeOption: String
    var mediaOption: String
    /// The exact cut length of the PDF's page, hundredths of a millimetre.
    var cutLength: Int
    var pdfBytes: Int
    /// The queue's PPD filter line: the format CUPS converts to.
    var filter: String?
    /// KioskPrint's own receipt preset, given to `lpadmin -m everywhere` as it is.
    var strictPreset: DriverlessQueue.Setup
    var timed: [Attempt] = []
    var refused: [Attempt] = []
    /// What CUPS' IPP backend sent for `-o media=...`, from cupsd's debug log, and the printer's answer.
    var refusedMedia: RecordedMedia?
    var refusedAnswer: String?
    /// The filters cupsd ran for a job, in order, from the same debug log.
    var filterChain: [String] = []
    /// cupsd's CPU time with its reaped children's (filters, backend) over the timed jobs (DaemonCPU).
    var cupsdCPU: Duration?

    static let queue = "receipt"
    static let pollInterval = Duration.milliseconds(10)

    static func measure(saved: SavedPrinter, strictURI: String, printer: RunningPrinter, jobs: Int,
                        refusedAttempts: Int, folder: URL) async throws -> LpPrintPath {
        let document = try ReceiptPDF.draw(for: saved.capabilities, folder: folder)
        var cups = try await PrivateCups.start(logLevel: "warn")
        defer { cups.stop() }

        let strict = try await DriverlessQueue.add("kioskprint-preset", uri: strictURI, on: cups)
        try DriverlessQueue.remove("kioskprint-preset", on: cups)
        if case .refused(let reason) = try await DriverlessQueue.add(queue, uri: printer.uri, on: cups) {
            throw BenchError("cupsd made no driverless queue for the CUPS side's printer: \(reason)")
        }
        var result = LpPrintPath(
            cupsVersion: try await packageVersion("cups", folder: folder),
            pageSizeOption: "PageSize=Custom.\(document.widthText)x\(document.lengthText)mm",
            mediaOption: "media=Custom.\(document.widthText)x\(document.lengthText)mm",
            cutLength: document.cutLength, pdfBytes: document.bytes,
            filter: DriverlessQueue.filter(queue, on: cups), strictPreset: strict)

        // One untimed job first: cupsd loads the PPD and starts its first filters.
        _ = try await printOnce(result.pageSizeOption, file: document.path, cups: cups, printer: printer, folder: folder)
        let cupsd = DaemonCPU.cupsd(of: cups)
        let cpuBefore = cupsd.flatMap { DaemonCPU.used(pid: $0, withChildren: true) }
        for index in 0..<jobs {
            progress("lp job \(index + 1) of \(jobs)")
            result.timed.append(try await printOnce(result.pageSizeOption, file: document.path, cups: cups,
                                                    printer: printer, folder: folder))
        }
        if let cupsd, let cpuBefore, let after = DaemonCPU.used(pid: cupsd, withChildren: true) {
            result.cupsdCPU = after - cpuBefore
        }
        for _ in 0..<refusedAttempts {
            result.refused.append(try await printOnce(result.mediaOption, file: document.path, cups: cups,
                                                      printer: printer, folder: folder))
        }

        // Once more at LogLevel debug, untimed: the log then shows the media-col
        // CUPS' IPP backend sent for `media=` and what the printer answered.
        try await cups.restart(logLevel: "debug")
        let diagnosed = try await printOnce(result.mediaOption, file: document.path, cups: cups, printer: printer,
                                            folder: folder)
        let lines = cups.errorLog.split(separator: "\n").filter { $0.contains("[Job \(diagnosed.jobID)] ") }
        result.refusedMedia = lines.first { $0.contains("media-col collection {") }
            .flatMap { RecordedMedia(mediaCol: String($0)) }
        let tag = "[Job \(diagnosed.jobID)] "
        result.filterChain = lines.compactMap { line in
            line.range(of: tag + "Started filter ").map { URL(fileURLWithPath: String(line[$0.upperBound...])
                .components(separatedBy: " (PID")[0]).lastPathComponent }
        }
        result.refusedAnswer = lines.first { $0.contains(tag + "Validate-Job: ") || $0.contains(tag + "Print-Job: ") }
            .flatMap { line in line.range(of: tag).map { String(line[$0.upperBound...]) } }
        return result
    }

    /// Prints `file` once with `-o option` and follows the job to its end in cupsd.
    static func printOnce(_ option: String, file: String, cups: PrivateCups, printer: RunningPrinter,
                                  folder: URL) async throws -> Attempt {
        let known = Set(try printer.receivedJobs().map(\.jobID))
        let startedWall = Date()
        let started = ContinuousClock.now
        let lp = try await TimedRun.run("lp", ["-h", cups.server, "-d", queue, "-o", option, file],
                                        environment: [:], folder: folder, limit: .seconds(30))
        guard lp.succeeded, let id = lp.output.firstMatch(of: /request id is \S+-(\d+)/).flatMap({ Int($0.1) }) else {
            throw BenchError("lp -o \(option) failed (exit \(lp.status)): \(lp.output)")
        }
        var status: PrinterJobStatus?
        try await pollUntil("CUPS job \(id) to end", within: .seconds(60), every: pollInterval) {
            status = try? await PrinterJobs.status(of: id, at: cups.queueURI(queue), timeout: .seconds(5))
            return status?.state.isTerminal == true
        }
        let ended = ContinuousClock.now - started
        let recorded = try printer.receivedJobs().first { !known.contains($0.jobID) }
        let recordedAt = recorded.flatMap { Recording.recordedAt(jobID: $0.jobID, on: printer) }
        return Attempt(
            jobID: id, lpExit: lp.elapsed, toEnd: ended, toRecorded: recordedAt.map { .seconds($0.timeIntervalSince(startedWall)) },
            state: status?.state ?? .aborted, message: status?.printerStateMessage ?? status?.stateMessage,
            delivered: recorded.flatMap(RecordedMedia.init(job:)), documentFormat: recorded?.documentFormat)
    }

    /// The installed version of a Debian package, as dpkg has it.
    static func packageVersion(_ package: String, folder: URL) async throws -> String {
        let run = try await TimedRun.run("dpkg-query", ["-W", "-f=${Version}", package], environment: [:], folder: folder)
        return run.succeeded ? run.output.trimmingCharacters(in: .whitespacesAndNewlines) : "(version unknown)"
    }
}
