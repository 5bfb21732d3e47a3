public import PrintModel

/// What one job's delivery rules need to know besides its state: who it
/// is, and the role's and the configuration's settings.
public struct DeliveryContext: Hashable, Sendable {
    public var jobID: JobID
    public var role: Role
    /// How long the target may stay in trouble before the job goes to the next printer.
    public var failoverGrace: Duration
    /// The slowest a job at the printer is looked at.
    public var followCeiling: Duration
    /// The wait between the first `DeliveryMachine.quickLooks` looks at a job
    /// at the printer, before it doubles towards `followCeiling`.
    public var firstFollowWait: Duration
    /// The wait before asking again a printer that did not answer a follow look.
    public var unreachablePause: Duration
    /// What a job whose fate is unknown does.
    public var unknownFate: UnknownFateRule
    /// What a job the printer would print on other paper does.
    public var mediaChanges: MediaChangeRule

    public init(jobID: JobID, role: Role, failoverGrace: Duration, followCeiling: Duration,
                firstFollowWait: Duration = .milliseconds(10), unreachablePause: Duration, unknownFate: UnknownFateRule,
                mediaChanges: MediaChangeRule = MediaChangeRule.defaultRule) {
        self.jobID = jobID; self.role = role; self.failoverGrace = failoverGrace
        self.followCeiling = followCeiling; self.firstFollowWait = firstFollowWait
        self.unreachablePause = unreachablePause; self.unknownFate = unknownFate
        self.mediaChanges = mediaChanges
    }
}

/// The delivery rules, as one pure function: a state and an event in, the
/// next state and what to record, report and wait out. No I/O and no clock:
/// times come in the events, so every rule (waiting, failover after the
/// grace, the media fallback, exactly-once after a lost answer, the unknown
/// fate) is tested by feeding events, and `JobRunner` only carries out steps.
public enum DeliveryMachine {
    /// Follow looks made `DeliveryContext.firstFollowWait` apart before the wait starts doubling.
    public static let quickLooks = 5

    /// Reprints (under `reprint-marked`) before a job whose fate keeps being
    /// unknown is held: a printer that breaks off every send, or takes every
    /// byte and never confirms, would otherwise print REPRINT after REPRINT
    /// for as long as it is left so, or print nothing and be sent it for ever.
    public static let reprintLimit = 3

    public static func next(_ state: DeliveryState, on event: DeliveryEvent,
                            in context: DeliveryContext) -> (DeliveryState, [DeliveryAction]) {
        var next = state
        var actions: [DeliveryAction] = []
        switch (state.step, event) {
        case (.choosing, .read(let cancelRequested, let sentToPrinter, let printers)):
            if cancelRequested && !sentToPrinter { return ended(state, .canceled, "Canceled before it was sent.") }
            next.printerCount = printers
            guard printers > 0 else {
                actions = [.markWaiting(reason: DeliveryError.noPrinter(role: context.role.description).description,
                                        stateReasons: []),
                           .backOff(attempt: state.attempt)]
                next.attempt += 1
                break
            }
            next.targetIndex = min(state.targetIndex, printers - 1)
            next.step = .checking

        case (.checking, .ready(_, let warnings)):
            actions = [.clearTrouble(warnings: warnings)]
            next.troubleSince = nil
            next.step = .preparing

        case (.checking, .trouble(let problem, let now)):
            actions = [.noteTrouble(problem), .markWaiting(reason: problem.text, stateReasons: problem.reasons)]
            let since = state.troubleSince ?? now
            next.troubleSince = since
            next.step = .choosing
            if now - since >= context.failoverGrace, state.targetIndex + 1 < state.printerCount {
                actions.append(.report(.failover(fromIndex: state.targetIndex, toIndex: state.targetIndex + 1)))
                next.targetIndex += 1
                next.troubleSince = nil
                next.attempt = 0
            } else {
                actions.append(.backOff(attempt: state.attempt))
                next.attempt += 1
            }

        case (.preparing, .prepared(let namedMedia)):
            next.fallbackMedia = namedMedia
            actions = [.markSending, .report(.sending)]
            next.step = .submitting

        case (.preparing, .preparedOnOtherPaper(let namedMedia, let reason)):
            guard context.mediaChanges == .warn else { return wouldChange(state, ["media-col"], reason, in: context) }
            next.fallbackMedia = namedMedia
            next.acceptedChanges = ["media-col"]
            actions = [.markSending, .report(.sending), .report(.mediaChanged(["media-col"], .warn))]
            next.step = .submitting

        case (.preparing, .notPrepared(let reason, let permanent)):
            if permanent { return ended(state, .failed, reason) }
            actions = [.markWaiting(reason: reason, stateReasons: []), .backOff(attempt: state.attempt)]
            next.attempt += 1
            next.step = .choosing

        case (.submitting, .submitted(let outcome)):
            return submitted(state, outcome, in: context)

        case (.searching(let reason), .searched(let outcome)):
            return searched(state, reason, outcome, in: context)

        case (.following(let ticket), .followed(let outcome, let cancelRequested)):
            return followed(state, ticket, outcome, cancelRequested: cancelRequested, in: context)

        case (.cancelling(let ticket), .cancelAsked(let failure)):
            next.cancelSent = true
            if let failure { actions = [.report(.retrying(reason: failure, attempt: 0))] }
            next.step = .following(ticket)

        default:
            // An event the step does not produce: the runner is wrong, not the
            // job. Start over from the job as stored; nothing is sent twice,
            // because a job at a printer is only ever followed or searched.
            next.step = .choosing
        }
        return (next, actions)
    }

    // MARK: - After a send

    private static func submitted(_ state: DeliveryState, _ outcome: SubmitOutcome,
                                  in context: DeliveryContext) -> (DeliveryState, [DeliveryAction]) {
        var next = state
        switch outcome {
        case .accepted(let ticket):
            next.notes = notes(state, changed: state.acceptedChanges ?? [])
            next.step = .following(ticket)
            return (next, [.markSent(ticket)])
        case .acceptedWithChanges(let ticket, let changed):
            return acceptedWithChanges(state, ticket, changed, in: context)
        case .wouldChange(let changed, let reason):
            return wouldChange(state, changed, reason, in: context)
        case .printed(let notes, let impressions):
            next.step = .ended(.completed, nil)
            return (next, [.recordProgress(state: nil, reasons: notes, impressions: impressions),
                           .finish(.completed, error: nil)])
        case .mediaColRefused(let reason):
            guard state.namedMedia == nil, let fallback = state.fallbackMedia else {
                return ended(state, .failed, reason)
            }
            next.namedMedia = fallback
            next.step = .choosing
            return (next, [.report(.namedMediaFallback(fallback))])
        case .mayHaveBeenAccepted(let reason):
            next.pendingReason = reason
            next.step = .searching(.lostAnswer)
            return (next, [])
        case .retryable(let reason):
            return retry(state, reason)
        case .refused(let reason):
            return ended(state, .failed, reason)
        }
    }

    // MARK: - Paper the printer would change

    /// The notes a sent job records: the named size it went with, and what
    /// the printer said it changed.
    private static func notes(_ state: DeliveryState, changed: [String]) -> [String] {
        (state.namedMedia.map { ["sent-with-named-media-\($0)"] } ?? []) + changed.map { "printer-changed-\($0)" }
    }

    /// What the role is told to do about it, for the job's reason.
    private static func advice(_ context: DeliveryContext) -> String {
        "Load the paper the job asks for, give role \(context.role) a printer whose paper fits, or set "
            + "media-changes = \"warn\" under [role.\(context.role)] to print on what the printer has."
    }

    /// Validate-Job said the printer would change these: under `warn` the job
    /// is sent anyway (once, without asking again); under `fail` it goes to
    /// the role's next printer, or fails, before anything reaches paper.
    private static func wouldChange(_ state: DeliveryState, _ changed: [String], _ reason: String,
                                    in context: DeliveryContext) -> (DeliveryState, [DeliveryAction]) {
        var next = state
        if context.mediaChanges == .warn {
            next.acceptedChanges = changed
            next.step = .submitting
            return (next, [.report(.mediaChanged(changed, .warn))])
        }
        let changeReport = DeliveryAction.report(.mediaChanged(changed, .fail))
        guard state.targetIndex + 1 < state.printerCount else {
            let (failed, actions) = ended(state, .failed, "\(reason) \(advice(context))")
            return (failed, [changeReport] + actions)
        }
        next.targetIndex += 1
        next.attempt = 0
        next.troubleSince = nil
        next.namedMedia = nil
        next.step = .choosing
        return (next, [changeReport, .report(.failover(fromIndex: state.targetIndex, toIndex: state.targetIndex + 1))])
    }

    /// Print-Job was answered with substituted attributes. A change that
    /// leaves the paper alone, or a role that accepts it, is noted and
    /// followed; otherwise the job is canceled at the printer and fails.
    private static func acceptedWithChanges(_ state: DeliveryState, _ ticket: PrinterTicket, _ changed: [String],
                                            in context: DeliveryContext) -> (DeliveryState, [DeliveryAction]) {
        var next = state
        next.notes = notes(state, changed: (state.acceptedChanges ?? []) + changed)
        next.step = .following(ticket)
        let paper = changed.filter(MediaChangeRule.paperAttributes.contains)
        if paper.isEmpty { return (next, [.markSent(ticket)]) }
        if context.mediaChanges == .warn {
            return (next, [.markSent(ticket), .report(.mediaChanged(paper, .warn))])
        }
        next.failure = "The printer took the job but changed \(paper.joined(separator: ", ")): it would have printed "
            + "on other paper than the job asks for. \(advice(context))"
        next.step = .cancelling(ticket)
        return (next, [.markSent(ticket), .report(.mediaChanged(paper, .fail))])
    }

    /// A failure that may pass: reported once per reason, then the backoff.
    private static func retry(_ state: DeliveryState, _ reason: String) -> (DeliveryState, [DeliveryAction]) {
        var next = state
        var actions: [DeliveryAction] = []
        if state.lastRetryReason != reason {
            actions.append(.report(.retrying(reason: reason, attempt: state.attempt)))
            next.lastRetryReason = reason
        }
        actions += [.countFailedSend, .markWaiting(reason: reason, stateReasons: []), .backOff(attempt: state.attempt)]
        next.attempt += 1
        next.step = .choosing
        return (next, actions)
    }

    // MARK: - Looking for the job by its marker

    private static func searched(_ state: DeliveryState, _ reason: SearchReason, _ outcome: SearchOutcome,
                                 in context: DeliveryContext) -> (DeliveryState, [DeliveryAction]) {
        var next = state
        switch outcome {
        case .found(let ticket):
            next.step = .following(ticket)
            var actions: [DeliveryAction] = [.markSent(ticket)]
            if reason == .recovery { actions.append(.report(.recovered(ticket))) }
            return (next, actions)
        case .absent:
            switch reason {
            case .recovery:
                next.step = .choosing
                return (next, [])
            case .lostAnswer:
                return retry(state, state.pendingReason ?? "The printer's answer was lost and it does not have the job.")
            case .forgotten:
                return unknownFate(state, state.pendingReason ?? "The printer forgot the job.", in: context)
            }
        case .cannotAsk(let why):
            // Until the printer answers nobody knows whether it has the job:
            // sending it now could print it twice, so wait.
            next.attempt += 1
            return (next, [.noteTrouble(PrinterProblem(text: why, reasons: [])),
                           .markWaiting(reason: why, stateReasons: []), .backOff(attempt: state.attempt)])
        case .unsupported:
            let why = state.pendingReason ?? "The agent stopped while the job was being sent."
            return unknownFate(state, why, in: context)
        }
    }

    /// The job may be on paper or not, and nothing can tell: the role's rule
    /// decides. A reprint waits a pause that grows with each unknown fate (a
    /// printer restarting, or an operator at it, gets time), and past
    /// `reprintLimit` reprints the job is held as under `hold`.
    private static func unknownFate(_ state: DeliveryState, _ reason: String,
                                    in context: DeliveryContext) -> (DeliveryState, [DeliveryAction]) {
        var next = state
        next.unknownFates += 1
        let id = context.jobID
        let whatNext = "Check the printer (paper, cover, cable, error light), then print it again with "
            + "`kioskprint jobs retry \(id)`, or drop it with `kioskprint jobs cancel \(id)`."
        switch context.unknownFate {
        case .reprintMarked where state.unknownFates < reprintLimit:
            next.reprint = true
            next.step = .choosing
            let waiting = "\(reason) Whether it printed is unknown; it is printed again, marked REPRINT, after a pause "
                + "(reprint \(next.unknownFates) of at most \(reprintLimit))."
            return (next, [.countFailedSend, .report(.unknownFate(.reprintMarked, reason: reason)),
                           .markWaiting(reason: waiting, stateReasons: []), .backOff(attempt: state.unknownFates)])
        case .reprintMarked:
            let (held, actions) = ended(next, .held, "\(reason) Its fate was unknown \(next.unknownFates) times in a row, "
                + "reprints included, so it is held rather than printed again. \(whatNext)")
            return (held, [.countFailedSend] + actions)
        case .hold:
            let (held, actions) = ended(next, .held, "\(reason) It may or may not have printed. \(whatNext)")
            return (held, [.countFailedSend, .report(.unknownFate(.hold, reason: reason))] + actions)
        }
    }

    // MARK: - Following the job at the printer

    private static func followed(_ state: DeliveryState, _ ticket: PrinterTicket, _ outcome: FollowOutcome,
                                 cancelRequested: Bool, in context: DeliveryContext) -> (DeliveryState, [DeliveryAction]) {
        var next = state
        switch outcome {
        case .ended(let end, let reasons, let impressions, let message):
            var actions: [DeliveryAction] = state.followUnanswered ? [.answeredAgain] : []
            if impressions > 0 || state.lastSeen == nil || reasons != state.lastSeen?.reasons || !state.notes.isEmpty {
                actions.append(.recordProgress(state: nil, reasons: reasons + state.notes, impressions: impressions))
            }
            if let failure = state.failure {
                let how = end == .completed ? "It printed before it could be stopped." : "It was canceled at the printer."
                let (done, finish) = ended(state, .failed, "\(failure) \(how)")
                return (done, actions + finish)
            }
            let (jobState, error): (JobState, String?) = switch end {
            case .completed: (.completed, nil)
            case .canceled: (.canceled, state.cancelSent ? "Canceled by the operator." : "Canceled at the printer.")
            case .aborted: (.aborted, "The printer aborted the job" + (message.map { ": \($0)" } ?? "")
                + " (\(reasons.joined(separator: ", "))).")
            }
            let (done, finish) = ended(state, jobState, error)
            return (done, actions + finish)
        case _ where cancelRequested && !state.cancelSent:
            next.step = .cancelling(ticket)
            return (next, [])
        case .progress(let stopped, let reasons, let impressions):
            var actions: [DeliveryAction] = state.followUnanswered ? [.answeredAgain] : []
            next.followUnanswered = false
            let seen = FollowSnapshot(stopped: stopped, reasons: reasons, impressions: impressions)
            next.followLooks = state.followLooks + 1
            if state.lastSeen != seen, !Self.holdsProgress(state, stopped: stopped, looks: next.followLooks) {
                actions.append(.recordProgress(state: stopped ? .waiting : .sent, reasons: reasons + state.notes,
                                               impressions: impressions))
                next.lastSeen = seen
            }
            let wait = state.followWait ?? context.firstFollowWait
            actions.append(.pause(wait))
            // A receipt on a fast printer ends within tens of milliseconds: look every
            // 10 ms at first (as a plain libcups client would; `print --wait` sooner),
            // then back off.
            if next.followLooks >= Self.quickLooks { next.followWait = min(wait * 2, context.followCeiling) }
            return (next, actions)
        case .forgotten(let reason):
            next.pendingReason = reason
            next.step = .searching(.forgotten)
            return (next, [])
        case .unreachable(let reason):
            next.followUnanswered = true
            return (next, [.noteTrouble(PrinterProblem(text: reason, reasons: ["unreachable"])),
                           .markWaiting(reason: reason, stateReasons: []), .pause(context.unreachablePause)])
        }
    }

    /// Whether a look's news waits instead of being written now: a job that
    /// prints on (not stopped) during its quick looks, where the store says
    /// `sent` already and nothing an operator must act on changed. A receipt
    /// usually ends within them, and its end records the printer's last word
    /// in the finishing commit: one synced commit per job fewer. A stop (out
    /// of paper), a printer answering again, or a job still printing after
    /// the quick looks is written at once, as before.
    static func holdsProgress(_ state: DeliveryState, stopped: Bool, looks: Int) -> Bool {
        !stopped && state.lastSeen?.stopped != true && !state.followUnanswered && looks < quickLooks
    }

    private static func ended(_ state: DeliveryState, _ jobState: JobState, _ error: String?) -> (DeliveryState, [DeliveryAction]) {
        var next = state
        next.step = .ended(jobState, error)
        return (next, [.finish(jobState, error: error)])
    }
}
