/// Why a Print-Job did not create a job. Every message names the printer's
/// URI and says what happens next or what to change.
public enum JobSubmitError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The request was not sent: it cannot be valid (no job name, no document...).
    case invalidRequest(uri: String, reason: String)
    /// `server-error-busy`: the printer is printing another job. Send it again later.
    case busy(uri: String, message: String?)
    /// No IPP reply came: refused, timed out, not an IPP printer... Whether
    /// the printer may hold the job anyway is `mayHaveBeenAccepted`.
    case unreachable(ContactError)
    /// A `client-error-*` status: the printer refuses this job as it is.
    case rejected(uri: String, status: String, message: String?)
    /// `client-error-attributes-or-values-not-supported`, with the attributes
    /// the printer named (its unsupported-attributes group), e.g. `media-col`:
    /// change those and send again, e.g. with `PrintJobRequest.withNamedMedia`.
    case attributesNotSupported(uri: String, names: [String], message: String?)
    /// A `server-error-*` status other than busy.
    case serverError(uri: String, status: String, message: String?)
    /// The printer said yes but its reply lacks what is needed to follow the job.
    case invalidReply(uri: String, reason: String)

    /// The printer's URI.
    public var uri: String {
        switch self {
        case .invalidRequest(let uri, _), .busy(let uri, _), .rejected(let uri, _, _),
             .attributesNotSupported(let uri, _, _), .serverError(let uri, _, _), .invalidReply(let uri, _):
            uri
        case .unreachable(let error):
            error.uri
        }
    }

    /// Whether sending the same request again later can succeed.
    public var isRetryable: Bool {
        switch self {
        case .busy: true
        case .unreachable(let error): error.isTransient
        case .serverError(_, let status, _): IPPStatusKind.isTransient(serverStatus: status)
        case .invalidRequest, .rejected, .attributesNotSupported, .invalidReply: false
        }
    }

    /// True when the printer may have created the job although no usable
    /// reply came (the connection broke or timed out after the request went
    /// out). Look for the job in `PrinterJobs.jobs` by its name before
    /// sending it again, or it may print twice.
    public var mayHaveBeenAccepted: Bool {
        switch self {
        case .unreachable(let error): error.mayHaveDelivered
        case .invalidReply: true
        case .invalidRequest, .busy, .rejected, .attributesNotSupported, .serverError: false
        }
    }

    public var description: String {
        switch self {
        case .invalidRequest(let uri, let reason):
            return "The job for \(uri) was not sent: \(reason). Correct the job and submit it again."
        case .busy(let uri, let message):
            return "\(uri) is busy with another job and did not take this one\(said(message)). It is sent again "
                + "shortly; if that keeps failing, check the printer's panel for a stuck job."
        case .unreachable(let error):
            let maybe = mayHaveBeenAccepted
                ? " The printer may have received the job anyway: look for it in the printer's job list before "
                    + "sending it again." : ""
            return "The job was not delivered. \(error.description)\(maybe)"
        case .rejected(let uri, let status, let message):
            return "\(uri) refused the job with \(status)\(said(message)). Sending it again as it is will not "
                + "help: check its document format and settings against what `kioskprint printers check` reports "
                + "for this printer."
        case .attributesNotSupported(let uri, let names, let message):
            let which = names.isEmpty ? "some of the job's settings" : names.joined(separator: ", ")
            return "\(uri) does not support \(which) for this job\(said(message)). Send it without those settings "
                + "or with values the printer lists (for paper: ask for a loaded size by name instead of media-col)."
        case .serverError(let uri, let status, let message):
            let next = isRetryable
                ? "It is sent again later; if the error persists, power-cycle the printer."
                : "The printer cannot do this; assign a printer that can to this role."
            return "\(uri) failed with \(status)\(said(message)). \(next)"
        case .invalidReply(let uri, let reason):
            return "\(uri) answered the print request in a way KioskPrint cannot follow: \(reason). The job may "
                + "still print; check the printer's job list before sending it again."
        }
    }
}

/// ` (the printer says: ...)`, or nothing.
func said(_ message: String?) -> String {
    guard let message, !message.isEmpty else { return "" }
    return " (the printer says: \(message))"
}

extension ContactError {
    /// A failure that can go away by itself: everything but a malformed
    /// address and a printer that demands a password. A changed certificate
    /// counts too: the job waits (or fails over) until the administrator
    /// trusts the new one, rather than failing for good.
    var isTransient: Bool {
        switch self {
        case .invalidURI, .authenticationRequired: false
        default: true
        }
    }

    /// Whether the request may have reached the printer and been acted on:
    /// the connection existed and broke, or the wait was given up, after it was sent.
    var mayHaveDelivered: Bool {
        switch self {
        case .timedOut(_, _, let connected): connected
        case .notIPPPrinter, .unreachable, .cancelled: true
        case .invalidURI, .hostNotFound, .refused, .authenticationRequired, .tls, .ippError: false
        // Checked after the handshake, before the request is written.
        case .certificateChanged: false
        }
    }
}
