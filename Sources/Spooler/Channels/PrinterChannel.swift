public import PrintModel

/// The one way the spooler talks to a printer, whatever it speaks: IPP
/// (`IPPChannel`) or a raw command language over a socket, USB or serial
/// line. Like a PAPPL driver beneath its printer and job code, a channel
/// only carries out exchanges and says what came back; every rule (claims,
/// markers, waiting, failover, exactly-once) stays in `DeliveryMachine`.
///
/// Every call returns within the channel's deadline, also when the printer
/// accepts the connection and never answers, and reports failures as values:
/// the machine decides what each one means for the job.
public protocol PrinterChannel: Sendable {
    /// Whether the printer can print now, and what it warns of meanwhile.
    func readiness() async -> Readiness

    /// Sends one prepared job.
    func submit(_ submission: ChannelSubmission) async -> SubmitOutcome

    /// Where a job the printer accepted stands now.
    func status(of ticket: PrinterTicket) async -> FollowOutcome

    /// Looks for a job by the marker in its name, to learn whether a send
    /// whose answer was lost reached the printer.
    func find(marker: String) async -> SearchOutcome

    /// Asks the printer to cancel an accepted job; the job ends when
    /// `status(of:)` says so. Returns a failure to report, or nil.
    func cancel(_ ticket: PrinterTicket) async -> String?

    /// Pulses the cash drawer wired to the printer's drawer port.
    func openDrawer() async -> DrawerOutcome

    /// Makes the printer show a person which one it is: IPP's
    /// Identify-Printer with `actions` (`sound`, `flash`, `display`), or the
    /// beep of a raw printer's language. No paper moves.
    func identify(actions: [String]) async -> IdentifyOutcome
}

/// What an identify request did.
public enum IdentifyOutcome: Hashable, Sendable {
    /// The printer did it; the text says what (for the client's status message).
    case done(String)
    /// The printer has no way to do it; the text says so.
    case unsupported(String)
    /// The printer could not be reached.
    case failed(String)
}

/// What a drawer kick did.
public enum DrawerOutcome: Hashable, Sendable {
    /// The pulse went out; `open` is the drawer switch read afterwards, when
    /// the printer reports it (nil when it cannot: no switch wired).
    case pulsed(open: Bool?)
    /// This printer has no drawer port, or its language no kick: the text says what to do.
    case unsupported(String)
    /// The printer could not be reached.
    case failed(String)
}

/// Whether a printer can print now.
public struct Readiness: Hashable, Sendable {
    /// What stops it printing (out of paper, cover open, unreachable), or nil.
    public var problem: PrinterProblem?
    /// Conditions to tell someone of that do not stop it: `media-low`
    /// (paper near its end), toner low.
    public var warnings: [String]
    /// The cash drawer's switch, where the printer reports one: true = open.
    public var drawerOpen: Bool?

    public init(problem: PrinterProblem? = nil, warnings: [String] = [], drawerOpen: Bool? = nil) {
        self.problem = problem; self.warnings = warnings; self.drawerOpen = drawerOpen
    }

    public static let ready = Readiness()
    public static func trouble(_ problem: PrinterProblem) -> Readiness { Readiness(problem: problem) }
}

/// Printer trouble as the operator should read it: the sentence, and the
/// printer's reason keywords (`media-empty`, `cover-open`, `unreachable`).
public struct PrinterProblem: Hashable, Sendable {
    public var text: String
    public var reasons: [String]

    public init(text: String, reasons: [String]) {
        self.text = text; self.reasons = reasons
    }
}

/// What a channel is asked to send: the job drawn for this printer, under
/// the name the printer shows (with the job's marker in it).
public struct ChannelSubmission: Sendable {
    public var document: PreparedDocument
    /// The job's name with its marker: `Receipt 4711, till 3 [kp-12-x7f0qa]`.
    public var jobName: String
    public var copies: Int
    /// A named size to ask for instead of the exact media-col (after the
    /// printer refused media-col once).
    public var namedMedia: String?
    /// How the knife cuts (the template's, else the role's); nil for the printer's own.
    public var cutStyle: CutStyle?
    /// Kick the cash drawer after the last cut (the job or its template asks).
    public var opensDrawer: Bool
    /// Ask the printer first whether it would print the job as drawn (IPP's
    /// Validate-Job), because this kind of job has not been to it yet. A
    /// printer that cannot be asked so ignores it.
    public var validate: Bool

    public init(document: PreparedDocument, jobName: String, copies: Int, namedMedia: String? = nil,
                cutStyle: CutStyle? = nil, opensDrawer: Bool = false, validate: Bool = false) {
        self.document = document; self.jobName = jobName; self.copies = copies; self.namedMedia = namedMedia
        self.cutStyle = cutStyle; self.opensDrawer = opensDrawer; self.validate = validate
    }
}

/// A printer's handle on a job it accepted: its `job-id` for IPP. A raw
/// printer gives none; its jobs end within `submit`.
public struct PrinterTicket: Hashable, Sendable, CustomStringConvertible {
    public var id: Int
    public init(_ id: Int) { self.id = id }
    public var description: String { "\(id)" }
}

/// What came of a submission.
public enum SubmitOutcome: Hashable, Sendable {
    /// The printer took the job and gave it a ticket to follow.
    case accepted(PrinterTicket)
    /// The printer took the job but ignored or replaced these attributes
    /// (`successful-ok-ignored-or-substituted-attributes`): it may print on
    /// other paper than asked.
    case acceptedWithChanges(PrinterTicket, changed: [String])
    /// Asked first (Validate-Job), the printer said it would ignore or
    /// replace these attributes, or refuses them; nothing was sent.
    case wouldChange([String], String)
    /// The job is printed and confirmed, with nothing left to follow (a raw
    /// printer that took every byte and reports no error after the cut).
    /// `notes` go into the job's reasons.
    case printed(notes: [String], impressions: Int)
    /// The printer refused the exact paper size (media-col); a named size may pass.
    case mediaColRefused(String)
    /// No usable answer came after the job went out: the printer may hold it.
    case mayHaveBeenAccepted(String)
    /// It failed in a way that may pass (busy, unreachable): try again later.
    case retryable(String)
    /// The printer refuses this job as it is: retrying cannot help.
    case refused(String)
}

/// What following an accepted job found.
public enum FollowOutcome: Hashable, Sendable {
    /// Still on its way: `stopped` while the printer needs attention.
    case progress(stopped: Bool, reasons: [String], impressions: Int)
    /// It ended at the printer.
    case ended(PrinterJobEnd, reasons: [String], impressions: Int, message: String?)
    /// The printer no longer lists it (restarted, power-cycled, purged).
    case forgotten(String)
    /// The printer could not be asked now.
    case unreachable(String)
}

/// How a job ended at the printer.
public enum PrinterJobEnd: Hashable, Sendable {
    case completed, canceled, aborted
}

/// What a search by marker found.
public enum SearchOutcome: Hashable, Sendable {
    case found(PrinterTicket)
    case absent
    /// The printer could not be asked now: wait, never guess.
    case cannotAsk(String)
    /// The printer keeps no job list (a raw printer): a send whose answer
    /// was lost can never be confirmed, and the role's rule decides.
    case unsupported
}
