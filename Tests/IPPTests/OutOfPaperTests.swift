import Foundation
import IPP
import PrintModel
import Simulator
import Testing

/// Running out of paper, the way a printer reports it: through
/// printer-state-reasons, with jobs held until the paper is back.
@Suite("Out of paper")
struct OutOfPaperTests {
    @Test("Level 0 shows media-empty; a job waits with media-needed; level 250 clears it and the job prints")
    func emptyAndRefill() async throws {
        let printer = try await JobLab.recordingPrinter("Recording Paperless")
        defer { retire(printer) }
        let before = try await PrinterContact.state(uri: printer.uri)
        #expect(!before.has("media-empty"))
        #expect(before.state == .idle)

        try await printer.setMediaLevel(0)
        let empty = try await PrinterContact.state(uri: printer.uri)
        #expect(empty.has("media-empty"))
        #expect(empty.needsAttention)

        let job = try await PrinterJobs.submit(try JobLab.receipt("Waits for paper \(JobLab.marker())"), to: printer.uri)
        let waiting = try await JobLab.printerStatus(printer.uri) { $0.has("media-needed") }
        #expect(waiting.has("media-needed"))
        #expect(waiting.state == .processing)
        // ippeveprinter holds the job before running its command: nothing printed.
        #expect(try printer.receivedJobs().isEmpty)
        let held = try await PrinterJobs.status(of: job.id, at: printer.uri)
        print("job held for paper: \(held.state) \(held.stateReasons); printer \(waiting.state) \(waiting.reasons)")
        #expect(!held.state.isTerminal)

        try await printer.setMediaLevel(250)
        let refilled = try await PrinterContact.state(uri: printer.uri)
        #expect(!refilled.has("media-empty"))
        let final = try await JobLab.status(of: job.id, at: printer.uri) { $0.state.isTerminal }
        #expect(final.state == .completed)
        #expect(try printer.receivedJobs().map(\.jobID) == [job.id])
        let idle = try await JobLab.printerStatus(printer.uri) { $0.reasons.isEmpty }
        #expect(idle.reasons.isEmpty)
    }

    @Test("A printer whose roll runs out during a job reports media-empty; a refill clears it")
    func runsOutDuringJob() async throws {
        let printer = try await JobLab.recordingPrinter("Recording Runs Out", reportsMediaEmpty: true)
        defer { retire(printer) }
        let job = try await PrinterJobs.submit(try JobLab.receipt("Last receipt \(JobLab.marker())"), to: printer.uri)
        let final = try await JobLab.status(of: job.id, at: printer.uri) { $0.state.isTerminal }
        #expect(final.state == .completed)
        let empty = try await JobLab.printerStatus(printer.uri) { $0.has("media-empty") }
        #expect(empty.has("media-empty"))

        try await printer.setMediaLevel(250)
        #expect(try await !PrinterContact.state(uri: printer.uri).has("media-empty"))
    }

    @Test("Only recording printers have received jobs; the form reports what it lacks")
    func notRecording() async throws {
        let lab = try await PrinterLab.shared()
        let printer = try #require(lab.printer(.label4x6))
        #expect(throws: RecordingError.self) { try printer.receivedJobs() }
        // A printer without printer-input-tray: the form says so instead of changing anything.
        let attributes = SimulatedPrinter.receipt58mm.attributes
            .split(separator: "\n").filter { !$0.contains("printer-input-tray") }.joined(separator: "\n")
        let trayless = try await lab.startPrinter(
            SimulatedPrinter(name: "Trayless \(try Loopback.freePort())", kinds: [.receipt], attributes: attributes))
        defer { retire(trayless) }
        do {
            try await trayless.setMediaLevel(0)
            Issue.record("a printer without printer-input-tray took a paper change")
        } catch let error as RecordingError {
            guard case .mediaFormFailed(_, let detail) = error else {
                Issue.record("expected mediaFormFailed, got \(error)")
                return
            }
            #expect(detail.contains("No printer-input-tray defined"))
        }
    }
}
