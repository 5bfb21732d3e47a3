/// Where a job is on its way to paper.
///
/// ```
/// queued -> sending -> sent -> completed
///    ^         |         |  \-> aborted (by the printer)
///    |         v         v
///    +---- waiting (printer trouble, retried)     failed (permanent) / canceled
///
/// sending/sent -> held (its fate is unknown and the role's rule is `hold`)
/// ```
public enum JobState: String, CaseIterable, Codable, Sendable, CustomStringConvertible {
    /// Accepted and stored; waiting for its turn (or for `nextAttemptAt`).
    case queued
    /// Being rendered and sent to a printer. After a crash in this state the
    /// printer may or may not have it: the spooler looks for its marker.
    case sending
    /// At the printer, which gave it `printerJobID`; being followed.
    case sent
    /// Held up by printer trouble (out of paper, offline, unreachable): the
    /// reason is in `lastError` and `stateReasons`. It goes on by itself.
    case waiting
    /// Printed.
    case completed
    /// Cannot print, and retrying as it is cannot help (bad content, a
    /// client-error from the printer).
    case failed
    /// Canceled by an operator.
    case canceled
    /// Ended by the printer before it was printed.
    case aborted
    /// Its fate is unknown (the connection broke mid-send to a printer that
    /// keeps no job list) and its role's rule is `hold`: it waits for an
    /// operator to check the printer and retry or cancel it. It never moves
    /// by itself, so the queue behind it goes on.
    case held
    /// Its row cannot be read by this version (a content kind from a newer
    /// KioskPrint, a damaged field): set aside, kept for the operator, so
    /// the jobs of its role behind it go on printing.
    case setAside = "set-aside"

    /// True once the job will not change by itself any more: completed,
    /// failed, canceled, aborted or held. Only an operator's retry revives it.
    public var isTerminal: Bool {
        switch self {
        case .queued, .sending, .sent, .waiting: false
        case .completed, .failed, .canceled, .aborted, .held, .setAside: true
        }
    }

    /// The states of jobs still on their way: the queue.
    public static let unfinished: [JobState] = allCases.filter { !$0.isTerminal }
    /// The states a job ends in.
    public static let terminal: [JobState] = allCases.filter(\.isTerminal)

    public var description: String { rawValue }
}
