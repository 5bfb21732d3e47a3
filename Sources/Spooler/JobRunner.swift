import Foundation
import IPP
import PrintModel
import Store
import Synchronization

/// Delivers one claimed job: picks the role's printer (a backup after the
/// grace time), waits out printer trouble, draws the job for that printer,
/// sends it, and follows it at the printer to its end. After a crash it
/// first looks for the job at the printer by its marker, so nothing is sent
/// twice.
struct JobRunner {
    let store: KioskStore
    let preparer: DocumentPreparer
    let configuration: SpoolerConfiguration
    let report: @Sendable (SpoolerEvent) -> Void
    let trouble: TroubleBook

    var owner: String { configuration.owner }

    /// Runs the job to its end, or until the task is cancelled (the claim then
    /// lapses and the job is taken up again later, found by its marker).
    func run(_ claimed: PrintJob) async {
        do {
            let job = try await deliver(claimed)
            report(.finished(job))
        } catch is CancellationError {
            return
        } catch {
            // A store error (the claim was lost to another process, the disk is
            // full): leave the job to whoever holds it now, or to a restart.
            report(.retrying(claimed, reason: "The job could not be recorded (\(error)).", after: configuration.lease))
        }
    }

    private func deliver(_ claimed: PrintJob) async throws -> PrintJob {
        var job = claimed
        if job.cancelRequested, job.printerJobID == nil {
            return try await store.finish(jobID: job.id, owner: owner, state: .canceled, error: "Canceled before it was sent.")
        }
        // Recovery: the job may already be at a printer.
        if let printer = job.printer, [.sending, .sent, .waiting].contains(job.state) {
            if let id = job.printerJobID {
                return try await follow(job, printerJobID: id, at: printer)
            }
            if let found = try await findByMarker(job, at: printer) {
                job = try await store.markSent(jobID: job.id, owner: owner, printerJobID: found)
                report(.recovered(job, printerJobID: found))
                return try await follow(job, printerJobID: found, at: printer)
            }
        }
        return try await send(job)
    }

    // MARK: - Choosing a printer and sending

    private func send(_ start: PrintJob) async throws -> PrintJob {
        var job = start
        var attempt = 0
        var targetIndex = 0
        var troubleSince: ContinuousClock.Instant?
        var namedMedia: String?
        var lastRetryReason: String?
        while true {
            try Task.checkCancellation()
            job = try await store.job(job.id)
            if job.cancelRequested {
                return try await store.finish(jobID: job.id, owner: owner, state: .canceled, error: "Canceled before it was sent.")
            }
            let printers = try await store.assignments(for: job.role).sorted { $0.position < $1.position }.map(\.printer)
            guard !printers.isEmpty else {
                job = try await store.markWaiting(jobID: job.id, owner: owner,
                                                  reason: DeliveryError.noPrinter(role: job.role.description).description)
                try await pause(attempt: &attempt)
                continue
            }
            let target = printers[min(targetIndex, printers.count - 1)]
            let printer = JobPrinter(target)

            // Is the printer there and ready? Out of paper, offline or gone: wait, then fail over.
            if let problem = await readiness(of: target) {
                if trouble.note(problem, role: job.role, printer: printer) {
                    report(.printerTrouble(role: job.role, printer: printer, reason: problem.text))
                }
                job = try await store.markWaiting(jobID: job.id, owner: owner, reason: problem.text,
                                                  stateReasons: problem.reasons)
                let since = troubleSince ?? .now
                troubleSince = since
                if ContinuousClock.now - since >= configuration.failoverGrace, targetIndex + 1 < printers.count {
                    let backup = JobPrinter(printers[targetIndex + 1])
                    report(.failover(job, from: printer, to: backup))
                    targetIndex += 1
                    troubleSince = nil
                    attempt = 0
                    continue
                }
                try await pause(attempt: &attempt)
                continue
            }
            if trouble.clear(role: job.role, printer: printer) { report(.printerRecovered(role: job.role, printer: printer)) }
            troubleSince = nil

            // Draw it for this printer: its roll, margins and resolution.
            let document: PreparedDocument
            do {
                document = try prepare(job, for: target)
            } catch {
                if error.isPermanent {
                    return try await store.finish(jobID: job.id, owner: owner, state: .failed, error: error.description)
                }
                job = try await store.markWaiting(jobID: job.id, owner: owner, reason: error.description)
                try await pause(attempt: &attempt)
                continue
            }
            job = try await store.markSending(jobID: job.id, owner: owner, printer: printer,
                                              cutLengths: document.cutLengths.isEmpty ? nil : document.cutLengths.map(\.hundredthsOfMillimetre))
            report(.sending(job, to: printer, format: document.format.rawValue, cutLengths: document.cutLengths))
            var request = Self.request(for: job, document: document)
            if let namedMedia { request = request.withNamedMedia(namedMedia) }
            let outcome: Result<SubmittedJob, JobSubmitError>
            do { outcome = .success(try await PrinterJobs.submit(request, to: target.uri, timeout: configuration.requestTimeout)) } catch {
                outcome = .failure(error)
            }
            switch outcome {
            case .success(let submitted):
                job = try await store.markSent(jobID: job.id, owner: owner, printerJobID: submitted.id)
                // A named-media fallback stays on the job's record, beside the printer's reasons.
                let notes = namedMedia.map { ["sent-with-named-media-\($0)"] } ?? []
                return try await follow(job, printerJobID: submitted.id, at: printer, notes: notes)
            case .failure(let error):
                if case .attributesNotSupported(_, let names, _) = error, names.contains("media-col"), namedMedia == nil,
                   let keyword = Self.namedMedia(for: document) {
                    namedMedia = keyword
                    report(.namedMediaFallback(job, media: keyword))
                    continue
                }
                if error.mayHaveBeenAccepted, let found = try await findByMarker(job, at: printer) {
                    job = try await store.markSent(jobID: job.id, owner: owner, printerJobID: found)
                    return try await follow(job, printerJobID: found, at: printer)
                }
                guard error.isRetryable else {
                    return try await store.finish(jobID: job.id, owner: owner, state: .failed, error: error.description)
                }
                // Said once per reason, not on every retry of a busy printer.
                if lastRetryReason != error.description {
                    report(.retrying(job, reason: error.description,
                                     after: configuration.retry.nominalDelay(afterAttempt: attempt)))
                    lastRetryReason = error.description
                }
                job = try await store.markWaiting(jobID: job.id, owner: owner, reason: error.description)
                try await pause(attempt: &attempt)
            }
        }
    }

    private func prepare(_ job: PrintJob, for printer: SavedPrinter) throws(DeliveryError) -> PreparedDocument {
        switch job.content {
        case .template(let name, let dataJSON):
            try preparer.prepare(template: name, dataJSON: dataJSON, jobName: job.name, for: printer.capabilities)
        case .document(let path, _):
            try preparer.prepare(file: path, for: printer.capabilities)
        }
    }

    /// The IPP request: the job's name with its marker (found again after a
    /// crash), the exact paper with the cut length, and the cut finishings.
    static func request(for job: PrintJob, document: PreparedDocument) -> PrintJobRequest {
        let mediaCol = document.cutLengths.isEmpty ? nil : PrintJobRequest.MediaCollection(
            xDimension: document.media.mediaWidth.hundredthsOfMillimetre,
            yDimension: document.yDimension.hundredthsOfMillimetre,
            source: document.media.mediaSource)
        return PrintJobRequest(document: document.data, documentFormat: document.format.rawValue,
                               jobName: "\(job.name) [\(job.marker)]", copies: job.copies,
                               printColorMode: .monochrome, mediaCol: mediaCol,
                               finishings: document.finishings.map(\.rawValue))
    }

    /// The named size to ask for when the printer refuses media-col: the
    /// media's own name, else a PWG self-describing custom size.
    static func namedMedia(for document: PreparedDocument) -> String? {
        if let name = document.media.mediaName { return name }
        let width = document.media.mediaWidth.hundredthsOfMillimetre, length = document.yDimension.hundredthsOfMillimetre
        func mm(_ value: Int) -> String {
            value % 100 == 0 ? "\(value / 100)" : String(format: "%.2f", Double(value) / 100)
                .replacingOccurrences(of: #"0+$"#, with: "", options: .regularExpression)
        }
        return "custom_\(mm(width))x\(mm(length))mm_\(mm(width))x\(mm(length))mm"
    }

    // MARK: - Following the job at the printer

    private func follow(_ start: PrintJob, printerJobID: Int, at printer: JobPrinter,
                        notes: [String] = []) async throws -> PrintJob {
        var job = start
        var interval = Duration.milliseconds(10)
        var cancelSent = false
        var lastSeen: (state: PrinterJobState, reasons: [String], impressions: Int)?
        while true {
            try Task.checkCancellation()
            if !cancelSent, try await store.job(job.id).cancelRequested {
                // Ask the printer; the job is finished when it says so.
                do { try await PrinterJobs.cancel(jobID: printerJobID, at: printer.uri, timeout: configuration.requestTimeout) } catch {
                    if case .alreadyFinished = error {} else if case .jobNotFound = error {} else {
                        report(.retrying(job, reason: "Cancel-Job failed: \(error)", after: interval))
                    }
                }
                cancelSent = true
            }
            let status: PrinterJobStatus
            do {
                status = try await PrinterJobs.status(of: printerJobID, at: printer.uri, timeout: configuration.requestTimeout)
            } catch {
                if case .jobNotFound = error {
                    // The printer forgot it (restarted, or purged finished jobs): it left the printer.
                    return try await store.finish(jobID: job.id, owner: owner, state: .completed,
                                                  error: "The printer no longer lists its job \(printerJobID); it is taken as printed.")
                }
                if trouble.note(.init(text: "\(error)", reasons: []), role: job.role, printer: printer) {
                    report(.printerTrouble(role: job.role, printer: printer, reason: "\(error)"))
                }
                job = try await store.markWaiting(jobID: job.id, owner: owner, reason: "\(error)")
                try await Task.sleep(for: configuration.retry.maximum / 10)
                continue
            }
            let impressions = status.impressionsCompleted ?? 0
            if status.state.isTerminal {
                if impressions > 0 || lastSeen == nil || status.stateReasons != lastSeen?.reasons || !notes.isEmpty {
                    job = try await store.recordProgress(jobID: job.id, owner: owner, reasons: status.stateReasons + notes,
                                                         impressions: impressions)
                }
                let (state, error): (JobState, String?) = switch status.state {
                case .completed: (.completed, nil)
                case .canceled: (.canceled, cancelSent ? "Canceled by the operator." : "Canceled at the printer.")
                default: (.aborted, "The printer aborted the job"
                    + (status.printerStateMessage ?? status.stateMessage).map { ": \($0)" }.orEmpty
                    + " (\(status.stateReasons.joined(separator: ", "))).")
                }
                return try await store.finish(jobID: job.id, owner: owner, state: state, error: error)
            }
            if lastSeen?.state != status.state || lastSeen?.reasons != status.stateReasons || lastSeen?.impressions != impressions {
                let stopped = status.state == .processingStopped
                job = try await store.recordProgress(jobID: job.id, owner: owner, state: stopped ? .waiting : .sent,
                                                     reasons: status.stateReasons + notes, impressions: impressions)
                lastSeen = (status.state, status.stateReasons, impressions)
            }
            try await Task.sleep(for: interval)
            interval = min(interval * 2, configuration.followInterval)
        }
    }

    /// The printer's id for this job, found by the marker in its name, or nil.
    private func findByMarker(_ job: PrintJob, at printer: JobPrinter) async throws -> Int? {
        var attempt = 0
        while true {
            do {
                let jobs = try await PrinterJobs.jobs(at: printer.uri, which: .all, timeout: configuration.requestTimeout)
                return jobs.first { $0.name?.contains(job.marker) == true }?.id
            } catch {
                // Until the printer answers we cannot know whether it has the job:
                // sending it now could print it twice, so wait.
                if trouble.note(.init(text: "\(error)", reasons: []), role: job.role, printer: printer) {
                    report(.printerTrouble(role: job.role, printer: printer, reason: "\(error)"))
                }
                _ = try await store.markWaiting(jobID: job.id, owner: owner, reason: "\(error)")
                try await pause(attempt: &attempt)
            }
        }
    }

    // MARK: - Printer trouble

    /// What keeps `printer` from printing now, or nil when it is ready.
    private func readiness(of printer: SavedPrinter) async -> PrinterProblem? {
        do {
            let status = try await PrinterContact.state(uri: printer.uri, timeout: .seconds(5))
            let attention = status.reasons.filter(\.needsAttention)
            if !attention.isEmpty {
                let words = attention.map(\.keyword).joined(separator: ", ")
                let message = status.message.map { " (\($0))" } ?? ""
                return PrinterProblem(text: "\(printer.name) reports \(words)\(message).", reasons: attention.map(\.keyword))
            }
            if !status.isAcceptingJobs {
                return PrinterProblem(text: "\(printer.name) is not accepting jobs.", reasons: ["not-accepting-jobs"])
            }
            return nil
        } catch {
            return PrinterProblem(text: error.description, reasons: ["unreachable"])
        }
    }

    private func pause(attempt: inout Int) async throws {
        try await Task.sleep(for: configuration.retry.delay(afterAttempt: attempt))
        attempt += 1
    }
}

/// Printer trouble as the operator should read it.
struct PrinterProblem: Hashable, Sendable {
    var text: String
    var reasons: [String]
}

/// The trouble last reported per role and printer, so that a condition is
/// reported once when it starts and once when it ends, not on every retry.
final class TroubleBook: Sendable {
    private let state = Mutex<[String: PrinterProblem]>([:])

    /// Records `problem`; true when it is new for this printer (report it).
    func note(_ problem: PrinterProblem, role: Role, printer: JobPrinter) -> Bool {
        state.withLock { known in
            let key = "\(role)|\(printer.uri)"
            defer { known[key] = problem }
            return known[key]?.reasons != problem.reasons
        }
    }

    /// Clears the trouble; true when there was some (report the recovery).
    func clear(role: Role, printer: JobPrinter) -> Bool {
        state.withLock { $0.removeValue(forKey: "\(role)|\(printer.uri)") != nil }
    }
}

extension Optional where Wrapped == String {
    fileprivate var orEmpty: String { self ?? "" }
}
