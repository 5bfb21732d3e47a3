import Foundation
import PrintModel
import Store

/// Delivers one claimed job by driving `DeliveryMachine`: it carries out
/// the step the state names (read the job, ask the printer, draw, send,
/// look for the marker, follow), feeds what came back to the machine, and
/// records, reports and waits as the machine says. Every rule lives in the
/// machine; every exchange with a printer goes through a `PrinterChannel`.
struct JobRunner {
    let store: KioskStore
    let preparer: DocumentPreparer
    let configuration: SpoolerConfiguration
    let channels: PrinterChannels
    /// Looks for an unreachable saved printer at a new address; nil never looks.
    let relocation: Relocation?
    let report: @Sendable (SpoolerEvent) -> Void
    let trouble: TroubleBook
    /// The kinds of job each printer has taken as drawn, so Validate-Job is asked once per kind.
    let validated: ValidationBook
    /// Each printer's last ready answer, so a burst of jobs asks its state once.
    let readiness: ReadinessBook

    var owner: String { configuration.owner }

    /// Runs the job to its end, or until the task is cancelled (the claim then
    /// lapses and the job is taken up again later, found by its marker).
    /// - Throws: trouble with the database's storage (the disk full, a lock
    ///   held too long), for the role's supervisor to report and back off
    ///   from; the job keeps its claim and is taken up again from where the
    ///   database says it stands.
    func run(_ claimed: PrintJob) async throws {
        do {
            let job = try await deliver(claimed)
            report(.finished(job))
        } catch is CancellationError {
            return
        } catch StoreError.jobFinished(let id, _) {
            // An operator ended it meanwhile (a cancel while it waited): that is its outcome.
            if let job = try? await store.job(id) { report(.finished(job)) }
        } catch let error where StorageTrouble(error) != nil {
            throw error
        } catch {
            // The claim was lost to another process: leave the job to whoever holds it now.
            report(.retrying(claimed, reason: "The job could not be recorded (\(error)).", after: configuration.lease))
        }
    }

    /// What the runner carries besides the machine's state.
    private struct Carried {
        var job: PrintJob
        var printers: [SavedPrinter] = []
        var document: PreparedDocument?
        /// The printer the last step talked to: trouble is noted against it.
        var talkedTo: JobPrinter?
        /// The job as the claim returned it, not yet read again: the first
        /// choice needs no second read (a cancel since would be in the claim).
        var justClaimed = true
        /// When the last look at the job at the printer began: the next look
        /// is timed from it.
        var lookedAt: ContinuousClock.Instant?
        /// Whether an operator asked to cancel, as the store said last, and
        /// when: every change the runner records returns the job, so a look
        /// soon after one needs no read of its own (`cancelReadSpacing`).
        var cancelRequested: (value: Bool, readAt: ContinuousClock.Instant)?
        /// The printer's ticket for the job, not yet recorded (`markSent`):
        /// written with the runner's next change of the job, the finish
        /// included, in place of a commit of its own.
        var unrecordedTicket: PrinterTicket?

        /// Takes the job as the store just returned it (a claim, a read, a recorded change).
        mutating func read(_ stored: PrintJob) {
            job = stored
            cancelRequested = (stored.cancelRequested, .now)
        }
    }

    /// How old the store's word on an operator's cancel may be before a look
    /// at the job at the printer reads it again. A receipt is looked at every
    /// 10 ms at first: reading the database at each look cost a hop to its
    /// queue and back per look, while a cancel is noticed this much later at most.
    static let cancelReadSpacing = Duration.milliseconds(100)

    private func deliver(_ claimed: PrintJob) async throws -> PrintJob {
        let context = DeliveryContext(
            jobID: claimed.id, role: claimed.role, failoverGrace: configuration.failoverGrace,
            followCeiling: configuration.followInterval, firstFollowWait: configuration.firstFollowWait,
            unreachablePause: configuration.retry.maximum / 10,
            unknownFate: configuration.unknownFateRule(for: claimed.role),
            mediaChanges: configuration.mediaChangeRule(for: claimed.role))
        var state = DeliveryState.start(for: claimed)
        var carried = Carried(job: claimed)
        carried.read(claimed)
        while true {
            try Task.checkCancellation()
            let event = try await perform(state, &carried)
            let (next, actions) = DeliveryMachine.next(state, on: event, in: context)
            var pending = actions[...]
            while let action = pending.popFirst() {
                if case .recordProgress(nil, let reasons, let impressions) = action,
                   case .finish(let jobState, let error)? = pending.first {
                    pending.removeFirst()
                    try await finish(jobState, error: error, reasons: reasons, impressions: impressions, &carried)
                } else {
                    try await execute(action, next, &carried)
                }
            }
            if next.ended != nil { return carried.job }
            state = next
        }
    }

    // MARK: - Steps

    private func perform(_ state: DeliveryState, _ carried: inout Carried) async throws -> DeliveryEvent {
        switch state.step {
        case .choosing:
            if carried.justClaimed { carried.justClaimed = false } else { carried.read(try await store.job(carried.job.id)) }
            carried.printers = try await store.assignments(for: carried.job.role)
                .sorted { $0.position < $1.position }.map(\.printer)
            return .read(cancelRequested: carried.job.cancelRequested, sentToPrinter: carried.job.printerJobID != nil,
                         printers: carried.printers.count)
        case .checking:
            let target = carried.printers[state.targetIndex]
            carried.talkedTo = JobPrinter(target)
            if let recent = self.readiness.recent(target.uri) { return .ready(at: .now, warnings: recent.warnings) }
            var readiness = await channels.channel(for: ChannelTarget(target)).readiness()
            if readiness.problem?.reasons == ["unreachable"], let moved = try await relocated(target, &carried, state) {
                // Found at a new address: print there now, without waiting for the failover grace.
                carried.talkedTo = JobPrinter(moved)
                readiness = await channels.channel(for: ChannelTarget(moved)).readiness()
            }
            self.readiness.record(readiness, for: carried.talkedTo?.uri ?? target.uri)
            if let problem = readiness.problem { return .trouble(problem, at: .now) }
            return .ready(at: .now, warnings: readiness.warnings)
        case .preparing:
            let target = carried.printers[state.targetIndex]
            do {
                let started = ContinuousClock.now
                let (document, drewNow) = try await prepare(carried.job, for: target, reprint: state.reprint)
                // Drawing is the spooler's own CPU work per job: the fleet's render-time
                // histogram (a job drawn at intake was timed there).
                if drewNow { SpoolerMetrics.recordDrawing(ContinuousClock.now - started, role: carried.job.role) }
                carried.document = document
                if let change = document.paperChange {
                    return .preparedOnOtherPaper(namedMedia: Self.namedMedia(for: document), reason: change)
                }
                return .prepared(namedMedia: Self.namedMedia(for: document))
            } catch {
                return .notPrepared(error.description, permanent: error.isPermanent)
            }
        case .submitting:
            let target = carried.printers[state.targetIndex]
            guard let document = carried.document else { return .notPrepared("The job was not drawn.", permanent: false) }
            let job = carried.job
            // The printer's panel and job list say REPRINT too (a PDF carries no banner).
            let name = state.reprint ? "\(Self.reprintBanner): \(job.name)" : job.name
            let kind = ValidationBook.kind(of: job, document: document, namedMedia: state.namedMedia, printer: target.uri)
            let validate = state.acceptedChanges == nil && !validated.contains(kind)
            let submission = ChannelSubmission(document: document, jobName: "\(name) [\(job.marker)]",
                                               copies: job.copies, namedMedia: state.namedMedia,
                                               cutStyle: document.cutStyle ?? configuration.cutStyle[job.role],
                                               opensDrawer: job.opensDrawer || document.opensDrawer, validate: validate)
            let outcome = await channels.channel(for: ChannelTarget(target)).submit(submission)
            if validate, case .accepted = outcome { validated.insert(kind) }
            return .submitted(outcome)
        case .searching:
            return .searched(try await recordedChannel(&carried).find(marker: carried.job.marker))
        case .following(let ticket):
            carried.lookedAt = .now
            // The printer is asked while the database is read for an operator's
            // cancel: a look costs one exchange's time, not the two in a row.
            let channel = try await recordedChannel(&carried)
            async let outcome = channel.status(of: ticket)
            var cancelRequested = false
            if !state.cancelSent {
                if let known = carried.cancelRequested, ContinuousClock.now - known.readAt < Self.cancelReadSpacing {
                    cancelRequested = known.value
                } else {
                    let readAt = ContinuousClock.now
                    cancelRequested = try await store.job(carried.job.id).cancelRequested
                    carried.cancelRequested = (cancelRequested, readAt)
                }
            }
            return .followed(await outcome, cancelRequested: cancelRequested)
        case .cancelling(let ticket):
            return .cancelAsked(failure: try await recordedChannel(&carried).cancel(ticket))
        case .ended:
            preconditionFailure("an ended delivery has no step to perform")
        }
    }

    /// The target found again at a new address by its UUID, saved there, or nil.
    private func relocated(_ target: SavedPrinter, _ carried: inout Carried,
                           _ state: DeliveryState) async throws -> SavedPrinter? {
        guard let relocation, let uuid = target.uuid,
              let uri = await relocation.find(target, uuid: uuid), uri != target.uri else { return nil }
        let moved = try await store.moveSavedPrinter(printerID: target.id, to: uri)
        carried.printers[state.targetIndex] = moved
        report(.printerMoved(role: carried.job.role, printer: JobPrinter(moved), from: target.uri, to: uri))
        return moved
    }

    /// The channel to the printer recorded on the job: where it was sent.
    private func recordedChannel(_ carried: inout Carried) async throws -> any PrinterChannel {
        guard let printer = carried.job.printer else {
            throw DeliveryError.badContent("Job \(carried.job.id) names no printer to ask.")
        }
        carried.talkedTo = printer
        // Its saved capabilities (a raw printer's language) and pin, if it is still saved.
        var saved = carried.printers.first { $0.id == printer.id && $0.uri == printer.uri }
        if saved == nil {
            let found = try? await store.findPrinter(printer.uri)
            saved = found?.id == printer.id ? found : nil
        }
        if let saved { return channels.channel(for: ChannelTarget(saved)) }
        return channels.channel(for: ChannelTarget(uri: printer.uri, name: printer.name))
    }

    /// A job printed again because its first print's fate is unknown says so on paper.
    static let reprintBanner = "REPRINT"

    /// The job drawn for `printer`, and whether it was drawn now (false: at intake).
    private func prepare(_ job: PrintJob, for printer: SavedPrinter,
                         reprint: Bool) async throws(DeliveryError) -> (PreparedDocument, drewNow: Bool) {
        // Drawn at intake for this very printer: send that drawing (a reprint needs its banner).
        if let drawnAhead = preparer.drawnAhead, let drawn = await drawnAhead.take(job: job.id, for: printer), !reprint {
            return (drawn, false)
        }
        // Off the cooperative pool: a PDF drawn by Ghostscript or a long report blocks its thread for seconds.
        let preparer = preparer
        return (try await BlockingWork.run { () throws(DeliveryError) in try Self.draw(job, for: printer, reprint: reprint, preparer: preparer) },
                true)
    }

    private static func draw(_ job: PrintJob, for printer: SavedPrinter, reprint: Bool,
                             preparer: DocumentPreparer) throws(DeliveryError) -> PreparedDocument {
        let banner = reprint ? Self.reprintBanner : nil
        let deviceText = preparer.deviceText(role: job.role, printer: printer)
        switch job.content {
        case .template(let name, let dataJSON):
            return try preparer.prepare(template: name, dataJSON: dataJSON, jobName: job.name, for: printer.capabilities,
                                        banner: banner, deviceText: deviceText)
        case .unreadable(let kind):
            // claimNext sets such rows aside; this only guards a row read another way.
            throw .badContent("Job \(job.id) holds content of a kind this version cannot read (\(kind)).")
        case .document(let path, let format):
            if let language = PrinterLanguage(rawValue: format) {
                return try preparer.prepare(languageFile: path, language: language, for: printer.capabilities)
            }
            return try preparer.prepare(file: path, for: printer.capabilities, banner: banner, deviceText: deviceText)
        }
    }

    // MARK: - Actions

    private func execute(_ action: DeliveryAction, _ state: DeliveryState, _ carried: inout Carried) async throws {
        let id = carried.job.id
        if action.saysPrinterFailed, let printer = carried.talkedTo { readiness.forget(printer.uri) }
        if action.storesAChangeBeforeTheEnd { try await recordTicket(&carried) }
        switch action {
        case .markWaiting(let reason, let reasons):
            carried.read(try await store.markWaiting(jobID: id, owner: owner, reason: reason, stateReasons: reasons))
        case .markSending:
            let target = JobPrinter(carried.printers[state.targetIndex])
            let lengths = carried.document?.cutLengths ?? []
            carried.read(try await store.markSending(jobID: id, owner: owner, printer: target,
                                                     cutLengths: lengths.isEmpty ? nil : lengths.map(\.hundredthsOfMillimetre)))
        case .countFailedSend:
            carried.read(try await store.countFailedSend(jobID: id, owner: owner))
        case .markSent(let ticket):
            // Held until the next change: until then the store says `sending`, which
            // after a crash means the same (the job is looked for by its marker), and
            // an operator's cancel reaches the printer through the runner as before.
            carried.unrecordedTicket = ticket
        case .recordProgress(let jobState, let reasons, let impressions):
            carried.read(try await store.recordProgress(jobID: id, owner: owner, state: jobState, reasons: reasons,
                                                        impressions: impressions))
        case .finish(let jobState, let error):
            carried.read(try await store.finish(jobID: id, owner: owner, state: jobState, error: error,
                                                printerJobID: carried.unrecordedTicket?.id))
            carried.unrecordedTicket = nil
        case .noteTrouble(let problem):
            if let printer = carried.talkedTo, trouble.note(problem, role: carried.job.role, printer: printer) {
                report(.printerTrouble(role: carried.job.role, printer: printer, reason: problem.text))
            }
        case .answeredAgain:
            if let printer = carried.talkedTo, trouble.clear(role: carried.job.role, printer: printer) {
                report(.printerRecovered(role: carried.job.role, printer: printer))
            }
        case .clearTrouble(let warnings):
            guard let printer = carried.talkedTo else { break }
            if trouble.clear(role: carried.job.role, printer: printer) {
                report(.printerRecovered(role: carried.job.role, printer: printer))
            }
            if let warning = trouble.newWarnings(warnings, role: carried.job.role, printer: printer) {
                report(.printerWarning(role: carried.job.role, printer: printer, reasons: warning))
            }
        case .report(let what):
            report(event(for: what, state, carried))
        case .backOff(let attempt):
            try await Task.sleep(for: configuration.retry.delay(afterAttempt: attempt))
        case .pause(let duration):
            // Between looks at a job at the printer the wait runs from the start of
            // the last look, so that look's exchange and the progress it recorded do
            // not stretch the interval: a look every 10 ms means every 10 ms.
            if case .following = state.step, let lookedAt = carried.lookedAt {
                try await Task.sleep(until: lookedAt + duration, clock: .continuous)
            } else {
                try await Task.sleep(for: duration)
            }
        }
    }

    /// `.recordProgress` then `.finish`, as the machine ends every followed
    /// job, carried out as one commit (one sync to disk): the ended job is
    /// recorded, and `print --wait` returns, that much sooner.
    private func finish(_ jobState: JobState, error: String?, reasons: [String], impressions: Int,
                        _ carried: inout Carried) async throws {
        if DeliveryAction.finish(jobState, error: error).saysPrinterFailed, let printer = carried.talkedTo {
            readiness.forget(printer.uri)
        }
        carried.read(try await store.finish(jobID: carried.job.id, owner: owner, state: jobState, error: error,
                                            stateReasons: reasons, impressions: impressions,
                                            printerJobID: carried.unrecordedTicket?.id))
        carried.unrecordedTicket = nil
    }

    /// Records the printer's ticket held since `.markSent`, before a change
    /// that is not the finish: the store then says `sent` first, as before.
    private func recordTicket(_ carried: inout Carried) async throws {
        guard let ticket = carried.unrecordedTicket else { return }
        carried.read(try await store.markSent(jobID: carried.job.id, owner: owner, printerJobID: ticket.id))
        carried.unrecordedTicket = nil
    }

    private func event(for report: DeliveryReport, _ state: DeliveryState, _ carried: Carried) -> SpoolerEvent {
        let job = carried.job
        switch report {
        case .sending:
            let document = carried.document
            return .sending(job, to: JobPrinter(carried.printers[state.targetIndex]),
                            format: document?.format.rawValue ?? "", cutLengths: document?.cutLengths ?? [])
        case .retrying(let reason, let attempt):
            return .retrying(job, reason: reason, after: configuration.retry.nominalDelay(afterAttempt: attempt))
        case .failover(let from, let to):
            return .failover(job, from: JobPrinter(carried.printers[from]), to: JobPrinter(carried.printers[to]))
        case .recovered(let ticket):
            return .recovered(job, printerJobID: ticket.id)
        case .namedMediaFallback(let media):
            return .namedMediaFallback(job, media: media)
        case .unknownFate(let rule, let reason):
            return .unknownFate(job, rule: rule, reason: reason)
        case .mediaChanged(let attributes, let rule):
            return .mediaChanged(job, printer: JobPrinter(carried.printers[state.targetIndex]), attributes: attributes, rule: rule)
        }
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
}

extension DeliveryAction {
    /// True when the action follows something that went wrong with the
    /// printer: its last ready answer no longer holds.
    var saysPrinterFailed: Bool {
        switch self {
        case .noteTrouble, .countFailedSend, .markWaiting, .recordProgress(state: .waiting, _, _): true
        case .finish(let state, _): state != .completed
        default: false
        }
    }

    /// True when the action writes a change to the job's row other than its
    /// end: a printer ticket held since `.markSent` is recorded before it, so
    /// that the store says `sent` first.
    var storesAChangeBeforeTheEnd: Bool {
        switch self {
        case .markWaiting, .markSending, .countFailedSend, .recordProgress: true
        case .markSent, .finish, .noteTrouble, .answeredAgain, .clearTrouble, .report, .pause, .backOff: false
        }
    }
}
