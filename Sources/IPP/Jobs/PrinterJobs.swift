import CCups
public import PrintModel

/// The job operations on a printer: Print-Job, Validate-Job, Get-Job-Attributes,
/// Get-Jobs, Cancel-Job and Identify-Printer, each one exchange through `IPPExchange` with a real deadline.
///
/// Each call returns within its `timeout` (plus at most half a second), also
/// when the printer accepts the connection and never answers. With a `pin`,
/// an `ipps://` printer presenting another certificate is refused before
/// anything is sent (`.unreachable(.certificateChanged)`).
public enum PrinterJobs {
    /// Sends `job` to the printer at `uri` with Print-Job, document included.
    ///
    /// - Returns: the job the printer created (its id, state, and anything it ignored).
    /// - Throws: `.busy` while the printer prints another job, `.attributesNotSupported`
    ///   with the attributes it named, `.unreachable` without an IPP reply, ...;
    ///   `isRetryable` and `mayHaveBeenAccepted` say what to do next.
    public static func submit(_ job: PrintJobRequest, to uri: String, timeout: Duration = .seconds(30),
                              pin: CertificateFingerprint? = nil) async throws(JobSubmitError) -> SubmittedJob {
        if let problem = job.problem { throw .invalidRequest(uri: uri, reason: problem) }
        let reply: IPPResponse
        do {
            reply = try await IPPExchange.send(uri: uri, operation: IPP_OP_PRINT_JOB, timeout: timeout, pin: pin,
                                               builder: IPPRequestBuilder { job.encode(into: $0) },
                                               document: job.document)
        } catch {
            throw .unreachable(error)
        }
        return try SubmittedJob(printJobReply: reply, uri: uri)
    }

    /// Asks the printer whether it would print `job` as it stands (Validate-Job:
    /// the same attributes, no document), before anything reaches paper.
    ///
    /// - Returns: what it would ignore or substitute (the unsupported-attributes
    ///   group of `successful-ok-ignored-or-substituted-attributes`); empty when
    ///   it would print the job exactly as asked.
    /// - Throws: as `submit`: `.attributesNotSupported` with the attributes it
    ///   refuses, `.rejected` when it has no Validate-Job, `.unreachable`, ...
    public static func validate(_ job: PrintJobRequest, at uri: String, timeout: Duration = .seconds(5),
                                pin: CertificateFingerprint? = nil) async throws(JobSubmitError) -> [IPPAttribute] {
        if let problem = job.problem { throw .invalidRequest(uri: uri, reason: problem) }
        let reply: IPPResponse
        do {
            reply = try await IPPExchange.send(uri: uri, operation: IPP_OP_VALIDATE_JOB, timeout: timeout, pin: pin,
                                               builder: IPPRequestBuilder { job.encode(into: $0) })
        } catch {
            throw .unreachable(error)
        }
        guard reply.isSuccess else { throw JobSubmitError(failedReply: reply, uri: uri) }
        return reply.statusCode == Int(IPP_STATUS_OK_IGNORED_OR_SUBSTITUTED.rawValue) ? reply.attributes(in: .unsupported) : []
    }

    /// The printer's view of job `jobID` (Get-Job-Attributes).
    public static func status(of jobID: Int, at uri: String, timeout: Duration = .seconds(5),
                              pin: CertificateFingerprint? = nil) async throws(JobQueryError) -> PrinterJobStatus {
        let reply = try await exchange(uri, IPP_OP_GET_JOB_ATTRIBUTES, timeout: timeout, pin: pin) { request in
            ippAddInteger(request, IPP_TAG_OPERATION, IPP_TAG_INTEGER, "job-id", Int32(clamping: jobID))
            IPPExchange.addStrings(request, group: IPP_TAG_OPERATION, syntax: IPP_TAG_KEYWORD,
                                   name: "requested-attributes", PrinterJobStatus.requestedAttributes)
        }
        guard reply.isSuccess else { throw JobQueryError(failedReply: reply, uri: uri, jobID: jobID) }
        guard let status = PrinterJobStatus(jobAttributes: reply.attributes(in: .job)) else {
            throw .invalidReply(uri: uri, reason: "the reply about job \(jobID) has no job-id or job-state")
        }
        return status
    }

    /// The printer's jobs (Get-Jobs), in the printer's order (ippeveprinter: newest first).
    /// This is how a job is found again by the marker in its name after the
    /// agent restarted. Printers forget finished jobs after a while
    /// (ippeveprinter after about a minute), so `.completed` is short-lived.
    /// A job the reply lists without an id or a known state is left out.
    public static func jobs(at uri: String, which: WhichJobs = .notCompleted, timeout: Duration = .seconds(5),
                            pin: CertificateFingerprint? = nil) async throws(JobQueryError) -> [PrinterJobStatus] {
        let reply = try await exchange(uri, IPP_OP_GET_JOBS, timeout: timeout, pin: pin) { request in
            ippAddString(request, IPP_TAG_OPERATION, IPP_TAG_KEYWORD, "which-jobs", nil, which.rawValue)
            IPPExchange.addStrings(request, group: IPP_TAG_OPERATION, syntax: IPP_TAG_KEYWORD,
                                   name: "requested-attributes", PrinterJobStatus.requestedAttributes)
        }
        guard reply.isSuccess else { throw JobQueryError(failedReply: reply, uri: uri, jobID: nil) }
        // One job group per job: the groups are kept apart in the reply.
        return reply.groups.filter { $0.tag == .job }.compactMap { PrinterJobStatus(jobAttributes: $0.attributes) }
    }

    /// Cancels job `jobID` (Cancel-Job). A job that is printing may take a
    /// moment to stop: follow it with `status` until it is `canceled`.
    /// - Throws: `.alreadyFinished` when it has completed, been canceled or
    ///   aborted; `.jobNotFound` when the printer does not know it.
    public static func cancel(jobID: Int, at uri: String, timeout: Duration = .seconds(5),
                              pin: CertificateFingerprint? = nil) async throws(JobQueryError) {
        let reply = try await exchange(uri, IPP_OP_CANCEL_JOB, timeout: timeout, pin: pin) { request in
            ippAddInteger(request, IPP_TAG_OPERATION, IPP_TAG_INTEGER, "job-id", Int32(clamping: jobID))
        }
        guard reply.isSuccess else {
            throw JobQueryError(failedReply: reply, uri: uri, jobID: jobID, cancelling: true)
        }
    }

    /// Asks the printer to show a person which one it is (Identify-Printer):
    /// `actions` are IPP's `identify-actions` keywords (`sound`, `flash`,
    /// `display`), and `message` what a display shows.
    /// - Throws: `.rejected` with `server-error-operation-not-supported`
    ///   when the printer has no such operation, `.unreachable`, ...
    public static func identify(at uri: String, actions: [String], message: String? = nil, timeout: Duration = .seconds(5),
                                pin: CertificateFingerprint? = nil) async throws(JobQueryError) {
        let reply = try await exchange(uri, IPP_OP_IDENTIFY_PRINTER, timeout: timeout, pin: pin) { request in
            IPPExchange.addStrings(request, group: IPP_TAG_OPERATION, syntax: IPP_TAG_KEYWORD, name: "identify-actions", actions)
            if let message { ippAddString(request, IPP_TAG_OPERATION, IPP_TAG_TEXT, "message", nil, message) }
        }
        guard reply.isSuccess else { throw JobQueryError(failedReply: reply, uri: uri, jobID: nil) }
    }

    private static func exchange(_ uri: String, _ operation: ipp_op_t, timeout: Duration, pin: CertificateFingerprint?,
                                 build: @escaping @Sendable (OpaquePointer) -> Void)
        async throws(JobQueryError) -> IPPResponse {
        do {
            return try await IPPExchange.send(uri: uri, operation: operation, timeout: timeout, pin: pin,
                                              builder: IPPRequestBuilder(build: build))
        } catch {
            throw .unreachable(error)
        }
    }
}
