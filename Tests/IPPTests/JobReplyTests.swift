import Foundation
import IPP
import PrintModel
import Testing

/// Reading job replies and deciding what their errors mean, on synthetic
/// replies: the statuses ippeveprinter never sends are covered here.
@Suite("Job replies")
struct JobReplyTests {
    private let uri = "ipp://192.168.1.40:631/ipp/print"

    private func reply(_ code: Int, _ name: String, message: String? = nil, job: [IPPAttribute] = [],
                       unsupported: [IPPAttribute] = []) -> IPPResponse {
        var operation: [IPPAttribute] = [IPPAttribute(name: "attributes-charset", syntax: .charset, group: .operation,
                                                      values: [.string("utf-8")])]
        if let message {
            operation.append(IPPAttribute(name: "status-message", syntax: .text, group: .operation,
                                          values: [.string(message)]))
        }
        var groups = [IPPAttributeGroup(tag: .operation, attributes: operation)]
        if !unsupported.isEmpty { groups.append(IPPAttributeGroup(tag: .unsupported, attributes: unsupported)) }
        if !job.isEmpty { groups.append(IPPAttributeGroup(tag: .job, attributes: job)) }
        return IPPResponse(statusCode: code, statusName: name, groups: groups)
    }

    private let createdJob: [IPPAttribute] = [
        .integer("job-id", 17), IPPAttribute(name: "job-uri", syntax: .uri, group: .job,
                                             values: [.string("ipp://192.168.1.40:631/ipp/print/17")]),
        .enumeration("job-state", 3), .keyword("job-state-reasons", "none"),
    ]

    @Test("successful-ok-ignored-or-substituted-attributes: the job, and what the printer ignored")
    func ignoredAttributes() throws {
        let ignored = IPPAttribute.enumeration("finishings", 60)
        let job = try SubmittedJob(printJobReply: reply(0x0001, "successful-ok-ignored-or-substituted-attributes",
                                                        job: createdJob, unsupported: [ignored]), uri: uri)
        #expect(job.id == 17)
        #expect(job.state == .pending)
        #expect(job.stateReasons.isEmpty)
        #expect(job.uri == "ipp://192.168.1.40:631/ipp/print/17")
        #expect(job.ignoredAttributeNames == ["finishings"])
        #expect(job.ignoredAttributes.first?.values == [.enumValue(60)])

        let plain = try SubmittedJob(printJobReply: reply(0, "successful-ok", job: createdJob), uri: uri)
        #expect(plain.ignoredAttributes.isEmpty)
    }

    @Test("Print-Job error statuses map to errors that say whether to retry")
    func submitErrors() {
        func error(_ code: Int, _ name: String, unsupported: [IPPAttribute] = []) -> JobSubmitError? {
            do {
                _ = try SubmittedJob(printJobReply: reply(code, name, message: "said", unsupported: unsupported),
                                     uri: uri)
                return nil
            } catch { return error }
        }
        #expect(error(0x0507, "server-error-busy") == .busy(uri: uri, message: "said"))
        #expect(error(0x040B, "client-error-attributes-or-values-not-supported",
                      unsupported: [.keyword("media-col", "x"), .keyword("sides", "two-sided-long-edge")])
                == .attributesNotSupported(uri: uri, names: ["media-col", "sides"], message: "said"))
        #expect(error(0x040A, "client-error-document-format-not-supported")
                == .rejected(uri: uri, status: "client-error-document-format-not-supported", message: "said"))
        #expect(error(0x0502, "server-error-service-unavailable")?.isRetryable == true)
        #expect(error(0x0506, "server-error-not-accepting-jobs")?.isRetryable == true)
        #expect(error(0x0501, "server-error-operation-not-supported")?.isRetryable == false)
        #expect(error(0x0400, "client-error-bad-request")?.isRetryable == false)
        #expect(error(0x0507, "server-error-busy")?.isRetryable == true)
        // Accepted without a job-id: it may print, but cannot be followed.
        #expect(throws: JobSubmitError.invalidReply(uri: uri, reason: "the printer accepted the job (successful-ok) but gave no job-id")) {
            try SubmittedJob(printJobReply: reply(0, "successful-ok"), uri: uri)
        }
    }

    @Test("Job query errors: not found, already finished (to Cancel-Job only), busy")
    func queryErrors() {
        #expect(JobQueryError(failedReply: reply(0x0406, "client-error-not-found"), uri: uri, jobID: 5)
                == .jobNotFound(uri: uri, jobID: 5))
        #expect(JobQueryError(failedReply: reply(0x0404, "client-error-not-possible", message: "done"), uri: uri,
                              jobID: 5, cancelling: true) == .alreadyFinished(uri: uri, jobID: 5, message: "done"))
        #expect(JobQueryError(failedReply: reply(0x0404, "client-error-not-possible"), uri: uri, jobID: 5)
                == .rejected(uri: uri, status: "client-error-not-possible", message: nil))
        #expect(JobQueryError(failedReply: reply(0x0406, "client-error-not-found"), uri: uri, jobID: nil)
                == .rejected(uri: uri, status: "client-error-not-found", message: nil))
        #expect(JobQueryError(failedReply: reply(0x0507, "server-error-busy"), uri: uri, jobID: 5).isRetryable)
    }

    @Test("Job attributes: state, reasons without none, impressions; a job without state is unreadable")
    func jobStatus() throws {
        let status = try #require(PrinterJobStatus(jobAttributes: [
            .integer("job-id", 3), IPPAttribute(name: "job-name", syntax: .name, group: .job,
                                                values: [.string("Receipt 4711")]),
            .enumeration("job-state", 6), .keyword("job-state-reasons", "media-empty", "none"),
            .integer("job-impressions", 5), .integer("job-impressions-completed", 2),
            .integer("job-media-sheets-completed", 1),
        ]))
        #expect(status.state == .processingStopped)
        #expect(!status.state.isTerminal)
        #expect(status.stateReasons == ["media-empty"])
        #expect(status.name == "Receipt 4711")
        #expect(status.impressions == 5 && status.impressionsCompleted == 2 && status.mediaSheetsCompleted == 1)
        #expect(PrinterJobStatus(jobAttributes: [.integer("job-id", 3)]) == nil)
        #expect(PrinterJobStatus(jobAttributes: [.integer("job-id", 3), .enumeration("job-state", 42)]) == nil)
        #expect(PrinterJobState.allCases.filter(\.isTerminal) == [.canceled, .aborted, .completed])
        #expect(PrinterJobState.processingStopped.description == "processing-stopped")
    }

    @Test("Printer status: severity suffixes stripped, none dropped, accepting-jobs read")
    func printerStatus() {
        let status = PrinterStatus(printerAttributes: [
            .enumeration("printer-state", 5), .keyword("printer-state-reasons", "media-empty-error", "none"),
            .boolean("printer-is-accepting-jobs", false), .integer("queued-job-count", 2),
        ])
        #expect(status.state == .stopped)
        #expect(status.reasons == [StateReason(keyword: "media-empty", severity: .error)])
        #expect(status.has("media-empty") && status.needsAttention)
        #expect(!status.isAcceptingJobs && status.queuedJobCount == 2)
    }

    @Test("Finishing values are the registered ones: trim 11, trim-after-* 60-63")
    func finishingValues() {
        #expect(PrintJobRequest.Finishing.none == 3)
        #expect(PrintJobRequest.Finishing.trim == 11)
        let trims: [Int] = [PrintJobRequest.Finishing.trimAfterPages, PrintJobRequest.Finishing.trimAfterDocuments,
                            PrintJobRequest.Finishing.trimAfterCopies, PrintJobRequest.Finishing.trimAfterJob]
        #expect(trims == [60, 61, 62, 63])
    }

    @Test("Every error message names the printer and says what to do")
    func messages() {
        let submitErrors: [JobSubmitError] = [
            .invalidRequest(uri: uri, reason: "no name"), .busy(uri: uri, message: nil),
            .unreachable(.refused(uri: uri)), .rejected(uri: uri, status: "client-error-bad-request", message: "x"),
            .attributesNotSupported(uri: uri, names: ["media-col"], message: nil),
            .serverError(uri: uri, status: "server-error-internal-error", message: nil),
            .invalidReply(uri: uri, reason: "r"),
        ]
        for error in submitErrors {
            #expect(error.description.contains(uri), "\(error)")
            #expect(error.uri == uri)
        }
        let queryErrors: [JobQueryError] = [
            .unreachable(.refused(uri: uri)), .jobNotFound(uri: uri, jobID: 4),
            .alreadyFinished(uri: uri, jobID: 4, message: nil), .busy(uri: uri, message: nil),
            .rejected(uri: uri, status: "s", message: nil), .serverError(uri: uri, status: "s", message: nil),
            .invalidReply(uri: uri, reason: "r"),
        ]
        for error in queryErrors {
            #expect(error.description.contains(uri), "\(error)")
            #expect(error.uri == uri)
        }
        #expect(JobSubmitError.busy(uri: uri, message: "Currently printing another job.").description
            .contains("the printer says: Currently printing another job."))
    }
}
