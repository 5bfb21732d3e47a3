public import Foundation

/// A job in the queue, as stored: what to print, for which role, and how far
/// it has got. Written to the database before anything else happens, so an
/// accepted job is never lost; the spooler moves it through `JobState`.
public struct PrintJob: Hashable, Codable, Sendable, Identifiable {
    public var id: JobID
    /// What the job is, for people: shown on the printer's panel and in job
    /// lists ("Receipt 4711, till 3", never "print job").
    public var name: String
    /// The role whose printers print it.
    public var role: Role
    public var content: JobContent
    public var copies: Int
    public var state: JobState
    public var createdAt: Date
    /// When `state` or the job's progress last changed.
    public var updatedAt: Date

    /// The printer it was last sent to, or is being sent to.
    public var printer: JobPrinter?
    /// The printer's `job-id`, once the printer has accepted it.
    public var printerJobID: Int?
    /// Failed sends counted so far; an operator's retry keeps the count.
    public var attempts: Int
    /// Not to be tried again before this.
    public var nextAttemptAt: Date?
    /// What last went wrong, in words for the operator.
    public var lastError: String?
    /// The printer's `job-state-reasons` (or printer-state-reasons while waiting).
    public var stateReasons: [String]
    /// Pages (impressions) printed so far, as the printer reports them.
    public var impressionsCompleted: Int
    /// Pages of one copy, as rendered; nil until rendered or when unknown (a PDF).
    public var pagesExpected: Int?
    /// The cut length of each rendered page, in hundredths of a millimetre
    /// (roll printers); nil when the job is not cut.
    public var cutLengths: [Int]?
    /// A token unique to this job (`kp-12-x7f0qa`) that the spooler puts in the
    /// job-name it sends, so that after a crash it can find the job among the
    /// printer's jobs (Get-Jobs) and not send it twice.
    public var marker: String
    /// An operator asked to cancel it; the spooler cancels it at the printer.
    public var cancelRequested: Bool
    /// When it reached a terminal state.
    public var completedAt: Date?
    /// The spooler process that holds the job now, if any.
    public var claimedBy: String?
    /// When that claim runs out unless renewed: after this another process may
    /// take the job over (the holder is presumed dead).
    public var claimExpiresAt: Date?
    /// Kick the cash drawer once the job is cut (a sale receipt), asked by
    /// whoever queued it; a template can ask for it too (`drawer="open"`).
    public var opensDrawer: Bool

    public init(id: JobID, name: String, role: Role, content: JobContent, copies: Int = 1,
                state: JobState = .queued, createdAt: Date, updatedAt: Date? = nil,
                printer: JobPrinter? = nil, printerJobID: Int? = nil, attempts: Int = 0,
                nextAttemptAt: Date? = nil, lastError: String? = nil, stateReasons: [String] = [],
                impressionsCompleted: Int = 0, pagesExpected: Int? = nil, cutLengths: [Int]? = nil,
                marker: String, cancelRequested: Bool = false, completedAt: Date? = nil,
                claimedBy: String? = nil, claimExpiresAt: Date? = nil, opensDrawer: Bool = false) {
        self.id = id; self.name = name; self.role = role; self.content = content; self.copies = copies
        self.state = state; self.createdAt = createdAt; self.updatedAt = updatedAt ?? createdAt
        self.printer = printer; self.printerJobID = printerJobID; self.attempts = attempts
        self.nextAttemptAt = nextAttemptAt; self.lastError = lastError; self.stateReasons = stateReasons
        self.impressionsCompleted = impressionsCompleted; self.pagesExpected = pagesExpected
        self.cutLengths = cutLengths; self.marker = marker; self.cancelRequested = cancelRequested
        self.completedAt = completedAt; self.claimedBy = claimedBy; self.claimExpiresAt = claimExpiresAt
        self.opensDrawer = opensDrawer
    }

    /// Pages of all copies, for "page 2 of 5"; nil while the page count is unknown.
    public var impressionsExpected: Int? { pagesExpected.map { $0 * copies } }
}
