public import PrintModel

/// Where one job's delivery stands: a value the runner holds and
/// `DeliveryMachine.next` moves, one event at a time. Everything the
/// delivery rules decide on is here; what the runner only carries (the job
/// record, the role's printers, the drawn document) is not.
public struct DeliveryState: Hashable, Sendable {
    /// What the runner does next to produce the next event.
    public var step: DeliveryStep
    /// Which of the role's printers is the target: 0 the primary, then the backups.
    public var targetIndex = 0
    /// How many printers the role had at the last look.
    public var printerCount = 0
    /// Failed tries at the target since it last printed or was switched; sets the backoff.
    public var attempt = 0
    /// Since when the target has been in trouble without a break, for the failover grace.
    public var troubleSince: ContinuousClock.Instant?
    /// The named size to send after the printer refused the exact media-col.
    public var namedMedia: String?
    /// The named size the drawn document offers, should media-col be refused.
    public var fallbackMedia: String?
    /// Why the last send's answer was lost or the printer forgot the job:
    /// the reason given if the search then says what to do.
    public var pendingReason: String?
    /// The last retry reason reported, so a busy printer is reported once, not per retry.
    public var lastRetryReason: String?
    /// Print it with a visible REPRINT line: its first send's fate is unknown.
    public var reprint = false
    /// How many of its sends ended with a fate nobody can tell: sets the
    /// pause before the next reprint, and past `DeliveryMachine.reprintLimit`
    /// the job is held instead of sent again.
    public var unknownFates = 0
    /// The operator's cancel has been passed on to the printer.
    public var cancelSent = false
    /// Notes recorded with the job's reasons (`sent-with-named-media-...`,
    /// `printer-changed-media-col`).
    public var notes: [String] = []
    /// What the target said it would change and the role lets it (`warn`):
    /// send without asking again, and record these.
    public var acceptedChanges: [String]?
    /// Why the job fails once the printer has ended it: it was accepted with
    /// changed paper under `fail`, and canceled there.
    public var failure: String?
    /// What following last recorded, so only changes are written.
    public var lastSeen: FollowSnapshot?
    /// The printer did not answer the last follow look.
    public var followUnanswered = false
    /// The wait before the next follow look: nil for the context's
    /// `firstFollowWait` (the first `DeliveryMachine.quickLooks` looks), then
    /// doubling to the configured ceiling.
    public var followWait: Duration?
    /// Follow looks so far that found the job still on its way.
    public var followLooks = 0

    public init(step: DeliveryStep) { self.step = step }

    /// Where a claimed job starts: at the printer it was sent to (or may have
    /// been, after a restart), else by choosing a printer.
    public static func start(for job: PrintJob) -> DeliveryState {
        guard job.printer != nil, [.sending, .sent, .waiting].contains(job.state) else {
            return DeliveryState(step: .choosing)
        }
        if let id = job.printerJobID { return DeliveryState(step: .following(PrinterTicket(id))) }
        return DeliveryState(step: .searching(.recovery))
    }

    /// The job's outcome, once the delivery has ended.
    public var ended: (state: JobState, error: String?)? {
        if case .ended(let state, let error) = step { return (state, error) }
        return nil
    }
}

/// What the runner does next.
public enum DeliveryStep: Hashable, Sendable {
    /// Read the job (a cancel?) and the role's printers.
    case choosing
    /// Ask the target whether it is ready.
    case checking
    /// Draw the job for the target: its roll, margins, resolution and language.
    case preparing
    /// Send it to the target.
    case submitting
    /// Look for the job by its marker at the printer it went to.
    case searching(SearchReason)
    /// Follow an accepted job. This step, searching and cancelling talk to
    /// the printer recorded on the job (set when it was sent), which after a
    /// restart may no longer be the role's target.
    case following(PrinterTicket)
    /// Pass the operator's cancel on to the printer.
    case cancelling(PrinterTicket)
    /// Finished: the state the job ends in and the reason, if any.
    case ended(JobState, String?)
}

/// Why the runner looks for the job at the printer, which decides what
/// "not there" means.
public enum SearchReason: Hashable, Sendable {
    /// After a restart, the job was being sent: absent means it never arrived.
    case recovery
    /// The send's answer was lost: absent means it never arrived.
    case lostAnswer
    /// The printer forgot a job it had accepted: absent means its fate is unknown.
    case forgotten
}

/// What following last wrote to the job.
public struct FollowSnapshot: Hashable, Sendable {
    public var stopped: Bool
    public var reasons: [String]
    public var impressions: Int
}

/// What the runner saw when it carried out a step.
public enum DeliveryEvent: Hashable, Sendable {
    /// The job as stored now and how many printers its role has.
    case read(cancelRequested: Bool, sentToPrinter: Bool, printers: Int)
    /// The target can print; `warnings` (paper near its end) are told once.
    case ready(at: ContinuousClock.Instant, warnings: [String])
    case trouble(PrinterProblem, at: ContinuousClock.Instant)
    /// The job is drawn; `namedMedia` is the size to fall back on if media-col is refused.
    case prepared(namedMedia: String?)
    /// The job is drawn, but on other paper than it asks for (labels loaded
    /// where it wants a roll): `reason` says which.
    case preparedOnOtherPaper(namedMedia: String?, reason: String)
    case notPrepared(String, permanent: Bool)
    case submitted(SubmitOutcome)
    case searched(SearchOutcome)
    /// A follow look; `cancelRequested` is the job's flag as read with it.
    case followed(FollowOutcome, cancelRequested: Bool)
    /// The cancel was passed on; a failure to report, or nil.
    case cancelAsked(failure: String?)
}

/// What the runner does between two events: record, report, wait.
public enum DeliveryAction: Hashable, Sendable {
    case markWaiting(reason: String, stateReasons: [String])
    /// `sending` to the target, with the drawn document's cut lengths.
    case markSending
    case markSent(PrinterTicket)
    /// A send failed or broke off: count it on the job.
    case countFailedSend
    /// Following found a change: a new unfinished state (nil keeps it), reasons, pages.
    case recordProgress(state: JobState?, reasons: [String], impressions: Int)
    case finish(JobState, error: String?)
    /// Printer trouble seen at the target (reported once per change).
    case noteTrouble(PrinterProblem)
    /// The target is ready (a recovery is reported if it was in trouble),
    /// with these warnings (each reported once, when it first shows).
    case clearTrouble(warnings: [String])
    /// The printer answered again while following: a recovery is reported
    /// if it had stopped answering (warnings are left as they were).
    case answeredAgain
    case report(DeliveryReport)
    /// Wait the retry backoff for this attempt (with jitter).
    case backOff(attempt: Int)
    /// Wait exactly this long.
    case pause(Duration)
}

/// What the runner reports, completed with the job and printers it holds.
public enum DeliveryReport: Hashable, Sendable {
    case sending
    case retrying(reason: String, attempt: Int)
    case failover(fromIndex: Int, toIndex: Int)
    case recovered(PrinterTicket)
    case namedMediaFallback(String)
    case unknownFate(UnknownFateRule, reason: String)
    /// The target would print (or took) the job on other paper: these
    /// attributes, and what the role's rule does about it.
    case mediaChanged([String], MediaChangeRule)
}
