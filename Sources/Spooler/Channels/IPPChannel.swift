import Foundation
import IPP
import PrintModel

/// A printer reached over IPP through libcups: readiness is a
/// Get-Printer-Attributes, a submission a Print-Job, following a
/// Get-Job-Attributes, the marker search a Get-Jobs, the cancel a Cancel-Job.
/// Every exchange holds an ipps printer to its pinned certificate: one that
/// presents another is trouble that needs a person, and is sent nothing.
struct IPPChannel: PrinterChannel {
    let uri: String
    let name: String
    /// Deadline of each exchange (Print-Job carries the document).
    let timeout: Duration
    /// The saved printer's id, named in the message about a changed certificate.
    var printerID: Int64?
    /// The certificate the printer must present (nil: not pinned, any is taken).
    var pin: CertificateFingerprint?
    /// Deadline of the small exchanges (state, follow, search, cancel): a
    /// printer that stops answering while a job waits is said within this,
    /// not after Print-Job's longer deadline.
    var askTimeout: Duration { min(timeout, .seconds(5)) }

    func readiness() async -> Readiness {
        do {
            let status = try await PrinterContact.state(uri: uri, timeout: askTimeout, pin: pin)
            let attention = status.reasons.filter(\.needsAttention)
            if !attention.isEmpty {
                let words = attention.map(\.keyword).joined(separator: ", ")
                let message = status.message.map { " (\($0))" } ?? ""
                return .trouble(PrinterProblem(text: "\(name) reports \(words)\(message).", reasons: attention.map(\.keyword)))
            }
            if !status.isAcceptingJobs {
                return .trouble(PrinterProblem(text: "\(name) is not accepting jobs.", reasons: ["not-accepting-jobs"]))
            }
            return Readiness(warnings: status.reasons.filter(\.isWarning).map(\.keyword))
        } catch .certificateChanged(let mismatch) {
            return .trouble(problem(mismatch))
        } catch {
            return .trouble(PrinterProblem(text: error.description, reasons: ["unreachable"]))
        }
    }

    func submit(_ submission: ChannelSubmission) async -> SubmitOutcome {
        var request = Self.request(for: submission)
        if let namedMedia = submission.namedMedia { request = request.withNamedMedia(namedMedia) }
        if submission.validate, let answer = await validate(request) { return answer }
        do {
            let submitted = try await PrinterJobs.submit(request, to: uri, timeout: timeout, pin: pin)
            let changed = submitted.ignoredAttributeNames
            return changed.isEmpty ? .accepted(PrinterTicket(submitted.id))
                : .acceptedWithChanges(PrinterTicket(submitted.id), changed: changed)
        } catch {
            if case .attributesNotSupported(_, let names, _) = error, names.contains("media-col") {
                return .mediaColRefused(error.description)
            }
            if case .unreachable(.certificateChanged(let mismatch)) = error { return .retryable(problem(mismatch).text) }
            if error.mayHaveBeenAccepted { return .mayHaveBeenAccepted(error.description) }
            return error.isRetryable ? .retryable(error.description) : .refused(error.description)
        }
    }

    /// Validate-Job before the first job of its kind: nil when the printer
    /// would print it as asked (or has no Validate-Job, which IPP/1.1 requires
    /// but not every printer answers), else what to do instead of sending it.
    private func validate(_ request: PrintJobRequest) async -> SubmitOutcome? {
        do {
            let changed = try await PrinterJobs.validate(request, at: uri, timeout: askTimeout, pin: pin).map(\.name)
            if changed.isEmpty { return nil }
            return .wouldChange(changed, "\(name) would not print this job as drawn: asked with Validate-Job, it "
                + "would ignore or replace \(changed.joined(separator: ", ")).")
        } catch {
            switch error {
            case .attributesNotSupported(_, let names, _) where names.contains("media-col"):
                return .mediaColRefused(error.description)
            case .attributesNotSupported(_, let names, _) where !names.isEmpty:
                return .wouldChange(names, error.description)
            case .unreachable(.certificateChanged(let mismatch)):
                return .retryable(problem(mismatch).text)
            case .rejected, .serverError:
                return nil  // no Validate-Job here: Print-Job's own answer will tell
            default:
                return error.isRetryable ? .retryable(error.description) : .refused(error.description)
            }
        }
    }

    func status(of ticket: PrinterTicket) async -> FollowOutcome {
        let status: PrinterJobStatus
        do {
            status = try await PrinterJobs.status(of: ticket.id, at: uri, timeout: askTimeout, pin: pin)
        } catch {
            if case .unreachable(.certificateChanged(let mismatch)) = error { return .unreachable(problem(mismatch).text) }
            if case .jobNotFound = error {
                return .forgotten("\(name) no longer lists its job \(ticket.id) (it was restarted or purged its jobs)")
            }
            return .unreachable("\(error)")
        }
        let impressions = status.impressionsCompleted ?? 0
        guard status.state.isTerminal else {
            return .progress(stopped: status.state == .processingStopped, reasons: status.stateReasons,
                             impressions: impressions)
        }
        let end: PrinterJobEnd = switch status.state {
        case .completed: .completed
        case .canceled: .canceled
        default: .aborted
        }
        return .ended(end, reasons: status.stateReasons, impressions: impressions,
                      message: status.printerStateMessage ?? status.stateMessage)
    }

    func find(marker: String) async -> SearchOutcome {
        do {
            let jobs = try await PrinterJobs.jobs(at: uri, which: .all, timeout: askTimeout, pin: pin)
            return jobs.first { $0.name?.contains(marker) == true }.map { .found(PrinterTicket($0.id)) } ?? .absent
        } catch {
            if case .unreachable(.certificateChanged(let mismatch)) = error { return .cannotAsk(problem(mismatch).text) }
            return .cannotAsk("\(error)")
        }
    }

    func cancel(_ ticket: PrinterTicket) async -> String? {
        do {
            try await PrinterJobs.cancel(jobID: ticket.id, at: uri, timeout: askTimeout, pin: pin)
            return nil
        } catch {
            if case .unreachable(.certificateChanged(let mismatch)) = error { return problem(mismatch).text }
            if case .alreadyFinished = error { return nil }
            if case .jobNotFound = error { return nil }
            return "Cancel-Job failed: \(error)"
        }
    }

    func identify(actions: [String]) async -> IdentifyOutcome {
        do {
            try await PrinterJobs.identify(at: uri, actions: actions, timeout: askTimeout, pin: pin)
            return .done("\(name) was asked to identify itself (\(actions.joined(separator: ", "))).")
        } catch {
            if case .unreachable(.certificateChanged(let mismatch)) = error { return .failed(problem(mismatch).text) }
            if case .unreachable = error { return .failed("\(name) cannot be reached: \(error)") }
            return .unsupported("\(name) did not identify itself: \(error)")
        }
    }

    func openDrawer() async -> DrawerOutcome {
        .unsupported("\(name) is an IPP printer, and IPP has no cash-drawer kick. Wire the drawer to a receipt "
            + "printer saved with a raw URI (socket://, usb:// or serial://) that has a drawer port, and give it this role.")
    }

    /// A changed certificate as printer trouble, named for the operator.
    private func problem(_ mismatch: CertificateMismatch) -> PrinterProblem {
        PrinterProblem(text: mismatch.explanation(printer: name, id: printerID), reasons: [Self.pinMismatchReason])
    }

    /// The reason keyword of a job waiting for a printer whose certificate changed.
    static let pinMismatchReason = "certificate-pin-mismatch"

    /// The IPP request: the job's name with its marker (found again after a
    /// crash), the exact paper with the cut length, and the cut finishings.
    static func request(for submission: ChannelSubmission) -> PrintJobRequest {
        let document = submission.document
        let mediaCol = document.cutLengths.isEmpty ? nil : PrintJobRequest.MediaCollection(
            xDimension: document.media.mediaWidth.hundredthsOfMillimetre,
            yDimension: document.yDimension.hundredthsOfMillimetre,
            source: document.media.mediaSource)
        return PrintJobRequest(document: document.data, documentFormat: document.format.rawValue,
                               jobName: submission.jobName, copies: submission.copies,
                               printColorMode: .monochrome, mediaCol: mediaCol,
                               finishings: document.finishings.map(\.rawValue))
    }
}
