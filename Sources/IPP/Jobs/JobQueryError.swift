/// Why asking a printer about its jobs, or cancelling one, failed. Every
/// message names the printer's URI and says what to do next.
public enum JobQueryError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No IPP reply came.
    case unreachable(ContactError)
    /// `client-error-not-found`: the printer does not know (or no longer
    /// remembers) a job with this id.
    case jobNotFound(uri: String, jobID: Int)
    /// `client-error-not-possible` to Cancel-Job: the job has already
    /// completed, been canceled or aborted.
    case alreadyFinished(uri: String, jobID: Int, message: String?)
    /// `server-error-busy`.
    case busy(uri: String, message: String?)
    /// Another `client-error-*` status.
    case rejected(uri: String, status: String, message: String?)
    /// Another `server-error-*` status.
    case serverError(uri: String, status: String, message: String?)
    /// A successful reply without the job's id or state.
    case invalidReply(uri: String, reason: String)

    /// The printer's URI.
    public var uri: String {
        switch self {
        case .unreachable(let error): error.uri
        case .jobNotFound(let uri, _), .alreadyFinished(let uri, _, _), .busy(let uri, _),
             .rejected(let uri, _, _), .serverError(let uri, _, _), .invalidReply(let uri, _):
            uri
        }
    }

    /// Whether asking again later can succeed.
    public var isRetryable: Bool {
        switch self {
        case .busy: true
        case .unreachable(let error): error.isTransient
        case .serverError(_, let status, _): IPPStatusKind.isTransient(serverStatus: status)
        case .jobNotFound, .alreadyFinished, .rejected, .invalidReply: false
        }
    }

    public var description: String {
        switch self {
        case .unreachable(let error):
            return "The printer's jobs could not be read. \(error.description)"
        case .jobNotFound(let uri, let jobID):
            return "\(uri) has no job \(jobID): it never had it, or it has finished and been forgotten (printers "
                + "keep finished jobs only a while). Look for the job by name in the printer's job list; if it is "
                + "not there, treat it as not printed."
        case .alreadyFinished(let uri, let jobID, let message):
            return "Job \(jobID) on \(uri) has already finished and cannot be canceled\(said(message)). "
                + "Nothing to do; its final state is in the printer's job list."
        case .busy(let uri, let message):
            return "\(uri) is busy and did not answer about its jobs\(said(message)). Ask again shortly."
        case .rejected(let uri, let status, let message):
            return "\(uri) refused the job request with \(status)\(said(message)). Check that the URI is the "
                + "printer's IPP address (`kioskprint printers check`)."
        case .serverError(let uri, let status, let message):
            return "\(uri) failed with \(status)\(said(message)). Ask again later; if it persists, power-cycle "
                + "the printer."
        case .invalidReply(let uri, let reason):
            return "\(uri) answered about its jobs in a way KioskPrint cannot read: \(reason). Ask again; if it "
                + "persists, check the printer's firmware."
        }
    }

    /// The error an unsuccessful reply about job `jobID` (nil for a job list)
    /// stands for. Only to Cancel-Job does not-possible mean "already finished".
    public init(failedReply reply: IPPResponse, uri: String, jobID: Int?, cancelling: Bool = false) {
        let message = reply.statusMessage
        switch (IPPStatusKind(reply.statusCode), jobID) {
        case (.busy, _):
            self = .busy(uri: uri, message: message)
        case (.notFound, let jobID?):
            self = .jobNotFound(uri: uri, jobID: jobID)
        case (.notPossible, let jobID?) where cancelling:
            self = .alreadyFinished(uri: uri, jobID: jobID, message: message)
        case (.clientError, _), (.notFound, nil), (.notPossible, _), (.attributesNotSupported, _):
            self = .rejected(uri: uri, status: reply.statusName, message: message)
        case (.serverError, _), (.success, _):
            self = .serverError(uri: uri, status: reply.statusName, message: message)
        }
    }
}
