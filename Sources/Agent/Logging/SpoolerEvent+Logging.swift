public import Logging
public import Spooler

extension SpoolerEvent {
    /// How loud the event is in the log: a job's outcome is one line at
    /// notice (or error when it failed), trouble a warning once per change,
    /// retries and sends are detail (debug), so a day of receipts is a day of lines.
    public var logLevel: Logger.Level {
        switch self {
        case .finished(let job): job.state == .completed ? .notice : .error
        case .printerTrouble, .printerWarning, .failover, .namedMediaFallback, .unknownFate, .mediaChanged: .warning
        case .printerRecovered, .recovered, .printerMoved: .notice
        case .setAside, .roleFailed: .error
        case .sending, .retrying: .debug
        }
    }

    /// Structured fields for the line: the job and role it concerns.
    public var logMetadata: Logger.Metadata {
        switch self {
        case .sending(let job, _, _, _), .finished(let job), .retrying(let job, _, _), .failover(let job, _, _),
             .recovered(let job, _), .namedMediaFallback(let job, _), .unknownFate(let job, _, _),
             .mediaChanged(let job, _, _, _):
            ["job": "\(job.id)", "role": "\(job.role)"]
        case .setAside(let id, let role, _):
            ["job": "\(id)", "role": "\(role)"]
        case .printerTrouble(let role, _, _), .printerWarning(let role, _, _), .printerRecovered(let role, _),
             .roleFailed(let role, _, _), .printerMoved(let role, _, _, _):
            ["role": "\(role)"]
        }
    }
}
