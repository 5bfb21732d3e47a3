import Foundation
import IPP
import PrintModel
import Simulator
import Testing

/// Print-Job, Get-Job-Attributes, Get-Jobs and Cancel-Job against real
/// ippeveprinter printers that record what they receive.
@Suite("Printing jobs")
struct PrintJobTests {
    @Test("A PWG raster receipt arrives with its cut length, trim, name and bytes; status follows it to completed")
    func receiptArrivesAsSent() async throws {
        let printer = try await JobLab.recordingPrinter("Recording Receipt")
        defer { retire(printer) }
        // Brackets and quotes: ippeveprinter escapes them in IPP_* values.
        var request = try JobLab.receipt("Receipt \"4711\", till 3 [\(JobLab.marker())]", pages: 2)
        request.requestingUserName = "kiosk-test"
        request.printColorMode = .monochrome
        request.orientationRequested = .portrait

        let job = try await PrinterJobs.submit(request, to: printer.uri)
        #expect(job.id > 0)
        #expect(!job.state.isTerminal)
        #expect(job.ignoredAttributes.isEmpty)
        #expect(job.uri?.contains(":\(printer.port)/") == true)
        #expect(job.printerURI == printer.uri)

        let received = try #require(try await printer.receivedJobs(atLeast: 1).first)
        #expect(received.jobID == job.id)
        #expect(received.jobName == request.jobName)
        let mediaCol = try #require(received.attributes["IPP_MEDIA_COL"])
        #expect(mediaCol.contains("x-dimension=8000"))
        #expect(mediaCol.contains("y-dimension=12345"))
        #expect(mediaCol.contains("media-source=main-roll"))
        // Enum values reach the command as keywords.
        #expect(received.attributes["IPP_FINISHINGS"] == "trim-after-pages")
        #expect(received.attributes["IPP_JOB_ORIGINATING_USER_NAME"] == "kiosk-test")
        #expect(received.attributes["IPP_PRINT_COLOR_MODE"] == "monochrome")
        #expect(received.attributes["IPP_ORIENTATION_REQUESTED"] == "portrait")
        #expect(received.attributes["IPP_DOCUMENT_FORMAT_SUPPLIED"] == "image/pwg-raster")
        #expect(received.documentFormat == "image/pwg-raster")
        #expect(received.documentSize == request.document.count)
        #expect(try received.document() == request.document)
        #expect(received.pages == 2)

        let final = try await JobLab.status(of: job.id, at: printer.uri) { $0.state.isTerminal }
        #expect(final.state == .completed)
        #expect(final.id == job.id)
        #expect(final.name == request.jobName)
        #expect(final.stateReasons.contains("job-completed-successfully"))
        #expect(final.impressions == 2)
        #expect(final.impressionsCompleted == 2)
    }

    @Test("Paper by name and two copies: IPP_MEDIA and IPP_COPIES, impressions counted for both copies")
    func namedMediaAndCopies() async throws {
        let printer = try await JobLab.recordingPrinter("Recording Copies")
        defer { retire(printer) }
        var request = try JobLab.receipt("Coupon \(JobLab.marker())").withNamedMedia("roll_max_80x3000mm")
        request.copies = 2
        #expect(request.mediaCol == nil)

        let job = try await PrinterJobs.submit(request, to: printer.uri)
        let received = try #require(try await printer.receivedJobs(atLeast: 1).first)
        #expect(received.attributes["IPP_MEDIA"] == "roll_max_80x3000mm")
        #expect(received.attributes["IPP_MEDIA_COL"] == nil)
        #expect(received.attributes["IPP_COPIES"] == "2")

        let final = try await JobLab.status(of: job.id, at: printer.uri) { $0.state.isTerminal }
        #expect(final.state == .completed)
        #expect(final.impressions == 1)
        #expect(final.impressionsCompleted == 2)
    }

    @Test("A cut length beyond the roll's range: attributesNotSupported naming media-col, not retryable")
    func cutLengthOutOfRange() async throws {
        let printer = try await JobLab.recordingPrinter("Recording Strict")
        defer { retire(printer) }
        // The roll allows 25 mm to 3 m.
        let request = try JobLab.receipt("Too long \(JobLab.marker())", cutLength: 300_001)

        do {
            let job = try await PrinterJobs.submit(request, to: printer.uri)
            Issue.record("the printer took job \(job.id) with a 3000.01 mm cut")
        } catch {
            guard case .attributesNotSupported(let uri, let names, let message) = error else {
                Issue.record("expected attributesNotSupported, got \(error)")
                return
            }
            print("3000.01 mm cut: \(error)")
            #expect(uri == printer.uri)
            #expect(names.contains("media-col"))
            #expect(message?.isEmpty == false)
            #expect(!error.isRetryable)
            #expect(!error.mayHaveBeenAccepted)
            #expect(error.description.contains(printer.uri))
            #expect(error.description.contains("media-col"))
        }
        #expect(try printer.receivedJobs().isEmpty)

        // The fallback the error suggests: the same job with the paper by name.
        let job = try await PrinterJobs.submit(request.withNamedMedia("roll_max_80x3000mm"), to: printer.uri)
        let final = try await JobLab.status(of: job.id, at: printer.uri) { $0.state.isTerminal }
        #expect(final.state == .completed)
    }

    @Test("Validate-Job: a receipt the roll takes is fine as asked; a cut beyond its range is refused naming media-col; nothing prints")
    func validateJobChecksWithoutPrinting() async throws {
        let printer = try await JobLab.recordingPrinter("Recording Validate")
        defer { retire(printer) }
        let fine = try JobLab.receipt("Fine \(JobLab.marker())", cutLength: 17_355)
        #expect(try await PrinterJobs.validate(fine, at: printer.uri).isEmpty)

        let tooLong = try JobLab.receipt("Too long \(JobLab.marker())", cutLength: 300_001)
        do {
            let changed = try await PrinterJobs.validate(tooLong, at: printer.uri)
            Issue.record("Validate-Job took a 3000.01 mm cut (changing \(changed.map(\.name)))")
        } catch {
            guard case .attributesNotSupported(_, let names, _) = error else {
                Issue.record("expected attributesNotSupported, got \(error)")
                return
            }
            #expect(names.contains("media-col"))
        }
        #expect(try printer.receivedJobs().isEmpty, "Validate-Job prints nothing")
    }

    @Test("A second job while the first prints: busy and retryable; accepted once the first is done")
    func busyWhilePrinting() async throws {
        let printer = try await JobLab.recordingPrinter("Recording Busy", delay: .seconds(10))  // long enough to stay printing on a loaded machine
        defer { retire(printer) }
        let first = try await PrinterJobs.submit(try JobLab.receipt("First \(JobLab.marker())"), to: printer.uri)
        // Recorded means its command runs: the printer is printing it now.
        _ = try await printer.receivedJobs(atLeast: 1)

        let second = try JobLab.receipt("Second \(JobLab.marker())")
        do {
            let job = try await PrinterJobs.submit(second, to: printer.uri)
            Issue.record("the printer queued job \(job.id) while printing job \(first.id)")
        } catch {
            #expect(error == .busy(uri: printer.uri, message: "Currently printing another job."))
            #expect(error.isRetryable)
            #expect(!error.mayHaveBeenAccepted)
            #expect(error.description.contains(printer.uri))
        }

        let done = try await JobLab.status(of: first.id, at: printer.uri) { $0.state.isTerminal }
        #expect(done.state == .completed)
        let retried = try await PrinterJobs.submit(second, to: printer.uri)
        #expect(retried.id > first.id)
        let names = try await printer.receivedJobs(atLeast: 2).map(\.jobName)
        #expect(names.count == 2 && names.last == second.jobName)
    }

    @Test("Get-Jobs finds a job by the marker in its name: among all and completed jobs, not among pending ones")
    func findJobByMarker() async throws {
        let printer = try await JobLab.recordingPrinter("Recording Listing")
        defer { retire(printer) }
        let marker = JobLab.marker()
        let other = try await PrinterJobs.submit(try JobLab.receipt("Other receipt"), to: printer.uri)
        _ = try await JobLab.status(of: other.id, at: printer.uri) { $0.state.isTerminal }
        let job = try await PrinterJobs.submit(try JobLab.receipt("Receipt 4711 [\(marker)]"), to: printer.uri)
        _ = try await JobLab.status(of: job.id, at: printer.uri) { $0.state.isTerminal }

        let all = try await PrinterJobs.jobs(at: printer.uri, which: .all)
        #expect(all.count == 2)
        let found = try #require(all.first { $0.name?.contains(marker) == true })
        #expect(found.id == job.id)
        #expect(found.state == .completed)
        #expect(found.impressionsCompleted == 1)
        #expect(all.filter { $0.name?.contains(marker) == true }.count == 1)

        #expect(try await PrinterJobs.jobs(at: printer.uri, which: .completed).contains { $0.id == job.id })
        #expect(try await PrinterJobs.jobs(at: printer.uri, which: .notCompleted).isEmpty)
    }

    @Test("Cancelling a job while it prints ends it canceled; cancelling it again says it already finished")
    func cancelWhilePrinting() async throws {
        let printer = try await JobLab.recordingPrinter("Recording Cancel", delay: .seconds(15))  // long: the cancel ends it; a loaded machine must not finish it first
        defer { retire(printer) }
        let job = try await PrinterJobs.submit(try JobLab.receipt("Cancel me \(JobLab.marker())"), to: printer.uri)
        _ = try await printer.receivedJobs(atLeast: 1)
        let printing = try await PrinterJobs.status(of: job.id, at: printer.uri)
        #expect(printing.state == .processing)
        #expect(printing.stateReasons.contains("job-printing"))

        try await PrinterJobs.cancel(jobID: job.id, at: printer.uri)
        let final = try await JobLab.status(of: job.id, at: printer.uri) { $0.state.isTerminal }
        #expect(final.state == .canceled)
        #expect(final.stateReasons.contains("job-canceled-by-user"))
        #expect(try await PrinterJobs.jobs(at: printer.uri, which: .notCompleted).isEmpty)

        do {
            try await PrinterJobs.cancel(jobID: job.id, at: printer.uri)
            Issue.record("cancelling a canceled job succeeded")
        } catch {
            guard case .alreadyFinished(let uri, let jobID, let message) = error else {
                Issue.record("expected alreadyFinished, got \(error)")
                return
            }
            #expect(uri == printer.uri && jobID == job.id)
            #expect(message?.contains("already canceled") == true)
            #expect(!error.isRetryable)
            #expect(error.description.contains("\(job.id)") && error.description.contains(printer.uri))
        }
    }

    @Test("A job id the printer does not know: jobNotFound for status and cancel")
    func unknownJob() async throws {
        let lab = try await PrinterLab.shared()
        let printer = try #require(lab.printer(.label4x6))
        await #expect(throws: JobQueryError.jobNotFound(uri: printer.uri, jobID: 99_999)) {
            try await PrinterJobs.status(of: 99_999, at: printer.uri)
        }
        await #expect(throws: JobQueryError.jobNotFound(uri: printer.uri, jobID: 99_999)) {
            try await PrinterJobs.cancel(jobID: 99_999, at: printer.uri)
        }
    }

    @Test("A print command that fails aborts the job")
    func abortedJob() async throws {
        let printer = try await JobLab.recordingPrinter("Recording Jam", exitStatus: 1)
        defer { retire(printer) }
        let job = try await PrinterJobs.submit(try JobLab.receipt("Doomed \(JobLab.marker())"), to: printer.uri)
        let final = try await JobLab.status(of: job.id, at: printer.uri) { $0.state.isTerminal }
        #expect(final.state == .aborted)
        #expect(try printer.receivedJobs().count == 1)
    }

    @Test("Nothing listening: unreachable and retryable, and the job cannot have arrived")
    func nothingListening() async throws {
        let uri = "ipp://localhost:\(try Loopback.freePort())/ipp/print"
        let request = try JobLab.receipt("Nowhere")
        do {
            _ = try await PrinterJobs.submit(request, to: uri, timeout: .seconds(5))
            Issue.record("a job went to a port where nothing listens")
        } catch {
            #expect(error == .unreachable(.refused(uri: uri)))
            #expect(error.isRetryable)
            #expect(!error.mayHaveBeenAccepted)
            #expect(error.uri == uri)
            #expect(error.description.contains(uri))
        }
        await #expect(throws: JobQueryError.unreachable(.refused(uri: uri))) {
            try await PrinterJobs.jobs(at: uri)
        }
    }

    @Test("A printer that stops answering mid-job: timed out within the deadline, and the job may have arrived")
    func hungPrinter() async throws {
        let printer = try await JobLab.recordingPrinter("Recording Hung")
        defer { retire(printer) }
        // It answers before it hangs: the timeout below is the printer's doing.
        _ = try await PrinterContact.state(uri: printer.uri)
        printer.suspend()

        let request = try JobLab.receipt("Into the void")
        let start = ContinuousClock.now
        do {
            _ = try await PrinterJobs.submit(request, to: printer.uri, timeout: .seconds(2))
            Issue.record("a stopped printer took a job")
        } catch {
            #expect(error == .unreachable(.timedOut(uri: printer.uri, seconds: 2, connected: true)))
            #expect(error.isRetryable)
            #expect(error.mayHaveBeenAccepted)
            #expect(error.description.contains("job list"))
        }
        // Well under forever; wide, since this task resumes late when the
        // suite's synchronous tests hold both cooperative threads (seen: 7.8 s).
        #expect(ContinuousClock.now - start < .seconds(9))
    }

    @Test("A request that cannot be valid is refused before any connection")
    func invalidRequests() async throws {
        // Nothing listens there: only a check before connecting gives invalidRequest.
        let uri = "ipp://localhost:\(try Loopback.freePort())/ipp/print"
        var unnamed = try JobLab.receipt("x")
        unnamed.jobName = "  "
        var empty = try JobLab.receipt("Empty")
        empty.document = Data()
        var noCopies = try JobLab.receipt("None")
        noCopies.copies = 0
        let longName = try JobLab.receipt(String(repeating: "n", count: 256))
        for request in [unnamed, empty, noCopies, longName] {
            do {
                _ = try await PrinterJobs.submit(request, to: uri)
                Issue.record("\(request.jobName.prefix(20)) was sent")
            } catch {
                guard case .invalidRequest(let errorURI, let reason) = error else {
                    Issue.record("expected invalidRequest, got \(error)")
                    continue
                }
                #expect(errorURI == uri && !reason.isEmpty)
                #expect(!error.isRetryable && !error.mayHaveBeenAccepted)
            }
        }
    }
}
