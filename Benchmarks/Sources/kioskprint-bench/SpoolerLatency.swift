import BenchSupport
import Foundation
import PrintModel
import Setup
import Simulator
import Spooler
import Store
import Templates

/// Section 1, KioskPrint's side: receipts one at a time through the library
/// in this process, as the agent takes them in and prints them: `JobIntake`
/// with the agent's preparer (the receipt checked, laid out and drawn for the
/// printer while its insert commits) and the spooler that sends that drawing.
/// Each is timed from the intake returning (the job accepted and on disk) to
/// `Spooler.deliver` returning, which it does once the store shows the job
/// ended; the job must have ended `completed` at the printer.
struct SpoolerLatency: Sendable {
    /// The receipt printer as `RoleSetup.add` saved it: the CUPS side draws its PDF for the same media.
    var printer: SavedPrinter
    /// The intake: the receipt checked and drawn, its insert committed and synced to disk.
    var accept: [Duration] = []
    /// From `enqueue` returning to `deliver` returning with the job completed.
    var toCompleted: [Duration] = []
    /// From `enqueue` returning to the printer's recording of the job (see `Recording.recordedAt`).
    var toRecorded: [Duration] = []
    /// Timed jobs that did not end `completed`: their state and error.
    var failures: [String] = []
    /// The exact cut length KioskPrint drew the receipt to, as the store keeps it.
    var cutLength: Int?
    /// What the printer recorded of the last job: the media-col it was sent, and the format.
    var delivered: RecordedMedia?
    var documentFormat: String?
    /// This process's CPU time (RUSAGE_SELF) summed over the timed jobs, enqueue to deliver's return.
    var processCPU: Duration = .zero
    /// The bytes the printer recorded for the last job's document.
    var documentBytes: Int?

    static func measure(printer: RunningPrinter, jobs: Int, warmUps: Int, folder: URL) async throws -> SpoolerLatency {
        let store = try KioskStore(path: folder.appendingPathComponent("latency.sqlite").path)
        let role = try Role("receipt")
        let added = try await RoleSetup(store: store).add(uri: printer.uri, role: role, as: .primary)
        let preparer = DocumentPreparer(catalog: TemplateCatalog(), drawnAhead: DrawnDocuments())
        let intake = JobIntake(store: store, catalog: preparer.catalog, preparer: preparer)
        let spooler = Spooler(store: store, preparer: preparer)
        let data = try ReceiptSample.json()
        var result = SpoolerLatency(printer: added.assignment.printer)

        for index in 0..<(warmUps + jobs) {
            let cpuBefore = ProcessCPU.used()
            let asked = ContinuousClock.now
            let job = try await intake.queueTemplate("receipt", dataJSON: data, dataFile: "receipt.json", role: role,
                                                     jobName: "bench receipt \(index + 1)")
            let accepted = ContinuousClock.now
            let acceptedWall = Date()
            let ended = try await spooler.deliver(job.id)
            let elapsed = ContinuousClock.now - accepted
            guard index >= warmUps else { continue }
            result.processCPU += ProcessCPU.used() - cpuBefore

            result.accept.append(accepted - asked)
            guard ended.state == .completed else {
                result.failures.append("\(ended.state): \(ended.lastError ?? "no error recorded")")
                continue
            }
            result.toCompleted.append(elapsed)
            if let id = ended.printerJobID, let at = Recording.recordedAt(jobID: id, on: printer) {
                result.toRecorded.append(.seconds(at.timeIntervalSince(acceptedWall)))
            }
            if result.cutLength == nil { result.cutLength = ended.cutLengths?.max() }
        }
        let last = try printer.receivedJobs().last
        result.delivered = last.flatMap(RecordedMedia.init(job:))
        result.documentFormat = last?.documentFormat
        result.documentBytes = last?.documentSize
        return result
    }
}
