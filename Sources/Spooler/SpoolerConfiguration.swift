import Foundation
public import PrintModel

/// How the spooler paces itself. The defaults suit a kiosk on a LAN; tests
/// shorten the waits so that failures show quickly.
public struct SpoolerConfiguration: Sendable {
    /// Who holds claims: unique per process, so two agents never send one job.
    public var owner: String
    /// Called when a role's queue has stayed dry for `releaseAfterIdle` after
    /// it printed, and once after the spooler started: the agent gives the
    /// memory a burst freed back to the system there (`MemoryTuning`,
    /// SQLite's caches, `CleanPages`).
    public var whenIdleAfterWork: @Sendable () async -> Void = {}
    /// Called on a role's loop after each job it ran: the agent gives freed
    /// memory back there when a job left the heap far above its usual size
    /// (`MemoryCeiling`), since a queue that never runs dry never gets to
    /// `whenIdleAfterWork`.
    public var afterJob: @Sendable () async -> Void = {}
    /// How long a role's queue stays empty after work before `whenIdleAfterWork`.
    public var releaseAfterIdle: Duration = .seconds(2)
    /// How long a claim lasts unless renewed; another process takes the job
    /// over after this if the holder died (kill -9, power loss).
    public var lease: Duration
    /// Waits between attempts at a busy, unreachable or troubled printer.
    public var retry: RetryPolicy
    /// How long a role's primary may be in trouble before its job goes to a backup.
    public var failoverGrace: Duration
    /// How often an idle role looks for new jobs when nothing wakes it
    /// (`wake()`); new roles are looked for four times as seldom. The agent
    /// wakes the spooler on every write to the database and sets this to
    /// its `look-every` (5 s); the 250 ms default serves `print --wait`.
    public var idlePoll: Duration
    /// The slowest a job at the printer is asked about (Get-Job-Attributes);
    /// the first asks come sooner, since a receipt prints in well under a second.
    public var followInterval: Duration
    /// The wait between those first asks (`DeliveryMachine.quickLooks` of
    /// them). 10 ms, as a plain libcups client asks; `print --wait`, one
    /// process waiting for one job, asks sooner (`JobWatch`): a receipt an
    /// instant printer finishes is seen finished 3 ms sooner on average
    /// for a few more requests, where the agent keeps its CPU per job.
    public var firstFollowWait: Duration = .milliseconds(10)
    /// Per-request deadline for printer exchanges (Print-Job carries the
    /// document). A raw printer's is a stall window instead: how long it may
    /// take no byte, or not answer once its line has carried the job, before
    /// it counts as stalled; a long job on a slow line is never cut off by it.
    public var requestTimeout: Duration
    /// How long a printer's "ready" answer serves the jobs after it: within
    /// this, with nothing failed since, a job is sent without asking the
    /// printer's state first. A burst of receipts then asks once, not per
    /// receipt; a stopped printer still shows in the job's own state, and
    /// any trouble makes the next job ask again. Zero asks before every job.
    public var readinessReuse: Duration = .seconds(2)
    /// Waits before a role's loop that failed (the disk full, the database
    /// locked) starts again: 1 s, doubling to a minute.
    public var roleRestart = RetryPolicy(initial: .seconds(1), maximum: .seconds(60), jitter: 0)

    /// What each role does with a job whose fate is unknown; a role not
    /// named follows `UnknownFateRule.defaultRule(for:)`.
    public var unknownFate: [Role: UnknownFateRule] = [:]

    /// How the knife cuts each role's jobs where the template does not say;
    /// a role not named gets the printer's own (partial where it has both).
    public var cutStyle: [Role: CutStyle] = [:]

    /// What each role does when a printer would print its job on other paper
    /// (Validate-Job or Print-Job answered with substituted attributes); a
    /// role not named follows `MediaChangeRule.defaultRule`.
    public var mediaChanges: [Role: MediaChangeRule] = [:]

    /// The rule `role` follows when a printer would change its job's paper.
    public func mediaChangeRule(for role: Role) -> MediaChangeRule {
        mediaChanges[role] ?? MediaChangeRule.defaultRule
    }

    /// The rule `role` follows for a job whose fate is unknown.
    public func unknownFateRule(for role: Role) -> UnknownFateRule {
        unknownFate[role] ?? UnknownFateRule.defaultRule(for: role)
    }

    /// A claim owner unique to this process: host, pid and a random part.
    public static func processOwner() -> String {
        "\(ProcessInfo.processInfo.hostName):\(getpid()):\(UUID().uuidString.prefix(8))"
    }

    public init(owner: String = SpoolerConfiguration.processOwner(),
                lease: Duration = .seconds(30), retry: RetryPolicy = RetryPolicy(),
                failoverGrace: Duration = .seconds(60), idlePoll: Duration = .milliseconds(250),
                followInterval: Duration = .milliseconds(500), requestTimeout: Duration = .seconds(30)) {
        self.owner = owner; self.lease = lease; self.retry = retry; self.failoverGrace = failoverGrace
        self.idlePoll = idlePoll; self.followInterval = followInterval; self.requestTimeout = requestTimeout
    }
}
