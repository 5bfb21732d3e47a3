import CCups

/// A job the printer accepted: its id there, from which its progress is followed.
public struct SubmittedJob: Sendable, Hashable {
    /// The printer's `job-id`, for `PrinterJobs.status`, `cancel` and job lists.
    public var id: Int
    /// `job-uri`.
    public var uri: String?
    /// The state in the Print-Job reply: usually `pending` or `processing`.
    public var state: PrinterJobState
    /// `job-state-reasons` without `none`.
    public var stateReasons: [String]
    /// What the printer ignored or replaced: the unsupported-attributes group of a
    /// `successful-ok-ignored-or-substituted-attributes` reply. Empty otherwise.
    public var ignoredAttributes: [IPPAttribute]
    /// The printer's URI the job went to.
    public var printerURI: String

    public init(id: Int, uri: String? = nil, state: PrinterJobState, stateReasons: [String] = [],
                ignoredAttributes: [IPPAttribute] = [], printerURI: String) {
        self.id = id; self.uri = uri; self.state = state; self.stateReasons = stateReasons
        self.ignoredAttributes = ignoredAttributes; self.printerURI = printerURI
    }

    /// The names of `ignoredAttributes`, e.g. `["finishings"]`.
    public var ignoredAttributeNames: [String] { ignoredAttributes.map(\.name) }

    /// Reads a Print-Job reply from the printer at `uri`: the job it created,
    /// or the error its status stands for.
    public init(printJobReply reply: IPPResponse, uri: String) throws(JobSubmitError) {
        guard reply.isSuccess else {
            throw JobSubmitError(failedReply: reply, uri: uri)
        }
        let job = reply.attributes(in: .job)
        guard let id = job.int("job-id") else {
            throw .invalidReply(uri: uri, reason: "the printer accepted the job (\(reply.statusName)) but gave no job-id")
        }
        // Print-Job replies must carry job-state; a job just created is pending.
        let state = job.int("job-state").flatMap(PrinterJobState.init(rawValue:)) ?? .pending
        let ignored = reply.statusCode == Int(IPP_STATUS_OK_IGNORED_OR_SUBSTITUTED.rawValue)
            ? reply.attributes(in: .unsupported) : []
        self.init(id: id, uri: job.string("job-uri"), state: state,
                  stateReasons: job.strings("job-state-reasons").filter { !$0.isEmpty && $0 != "none" },
                  ignoredAttributes: ignored, printerURI: uri)
    }
}

extension JobSubmitError {
    /// The error an unsuccessful Print-Job reply stands for.
    init(failedReply reply: IPPResponse, uri: String) {
        let message = reply.statusMessage
        switch IPPStatusKind(reply.statusCode) {
        case .busy:
            self = .busy(uri: uri, message: message)
        case .attributesNotSupported:
            self = .attributesNotSupported(uri: uri, names: reply.attributes(in: .unsupported).map(\.name),
                                           message: message)
        case .clientError, .notFound, .notPossible:
            self = .rejected(uri: uri, status: reply.statusName, message: message)
        case .serverError, .success:
            self = .serverError(uri: uri, status: reply.statusName, message: message)
        }
    }
}

/// The IPP statuses job handling treats apart from the rest of their class.
enum IPPStatusKind {
    case success, busy, attributesNotSupported, notFound, notPossible, clientError, serverError

    init(_ code: Int) {
        switch code {
        case 0..<0x0100: self = .success
        case Int(IPP_STATUS_ERROR_BUSY.rawValue): self = .busy
        case Int(IPP_STATUS_ERROR_ATTRIBUTES_OR_VALUES.rawValue): self = .attributesNotSupported
        case Int(IPP_STATUS_ERROR_NOT_FOUND.rawValue): self = .notFound
        case Int(IPP_STATUS_ERROR_NOT_POSSIBLE.rawValue): self = .notPossible
        case 0x0400..<0x0500: self = .clientError
        default: self = .serverError
        }
    }

    /// Server errors that say nothing about the request itself: the printer
    /// may well take the same request later.
    static func isTransient(serverStatus status: String) -> Bool {
        !["server-error-operation-not-supported", "server-error-version-not-supported",
          "server-error-multiple-document-jobs-not-supported"].contains(status)
    }
}
