import Foundation
import IPP
import PrintModel
import Spooler
import Store

extension RolePrinterServer {
    /// Get-Job-Attributes (RFC 8011 §4.3.4).
    func getJobAttributes(_ request: RolePrinterRequest) async throws(IPPRefusal) -> Answer {
        let id = try RequestCheck.jobID(request)
        let requested = AttributeSelection(request.operationAttributes, default: ["all"])
        if let waiting = await pending.find(id, role: request.role) {
            let printerURI = "\(request.base)/ipp/print/\(request.role)"
            return Answer(jobs: [Self.pendingDescription(waiting, printerURI: printerURI).filter { requested.includes($0.name, printerAttribute: false) }])
        }
        let description = try await jobDescription(id, request)
        return Answer(jobs: [description.attributes().filter { requested.includes($0.name, printerAttribute: false) }])
    }

    /// Get-Jobs (RFC 8011 §4.2.6): the role's jobs, those not completed by
    /// default, oldest first; completed ones newest first, as CUPS lists them.
    func getJobs(_ request: RolePrinterRequest) async throws(IPPRefusal) -> Answer {
        let operation = request.operationAttributes
        let which = operation.string("which-jobs") ?? "not-completed"
        guard ["not-completed", "completed", "all"].contains(which) else {
            throw IPPRefusal(.attributesOrValuesNotSupported, "which-jobs \(which) is not supported; "
                + "ask for not-completed, completed or all.", unsupported: [operation[named: "which-jobs"]!])
        }
        let limit = operation.int("limit").map { max(1, $0) } ?? 1_000
        let mine = operation.bool("my-jobs") ?? false
        let requested = AttributeSelection(operation, default: ["job-id", "job-uri"])
        let printerURI = "\(request.base)/ipp/print/\(request.role)"
        var jobs: [PrintJob]
        do {
            jobs = try await store.jobs(includeFinished: which != "not-completed", role: request.role)
        } catch {
            throw IPPRefusal(.internalError, "The jobs of \(request.role) could not be read: \(store.explain(error))")
        }
        switch which {
        case "completed": jobs = jobs.filter(\.state.isTerminal).reversed()
        case "not-completed": jobs = jobs.filter { !$0.state.isTerminal }
        default: break
        }
        var groups: [[IPPAttribute]] = []
        if which != "completed" {
            for pending in await pending.all(role: request.role) where !mine || pending.user == request.user {
                groups.append(Self.pendingDescription(pending, printerURI: printerURI).filter { requested.includes($0.name, printerAttribute: false) })
            }
        }
        for job in jobs where groups.count < limit {
            let user = (try? await store.submitter(of: job.id)) ?? nil
            if mine && user != request.user { continue }
            let description = JobDescription(job: job, user: user ?? "anonymous", printerURI: printerURI, position: nil)
            groups.append(description.attributes().filter { requested.includes($0.name, printerAttribute: false) })
        }
        return Answer(jobs: Array(groups.prefix(limit)))
    }

    /// Cancel-Job (RFC 8011 §4.3.3): by the user who sent it.
    func cancelJob(_ request: RolePrinterRequest) async throws(IPPRefusal) -> Answer {
        let id = try RequestCheck.jobID(request)
        if let waiting = await pending.find(id, role: request.role) {
            try checkOwner(waiting.user, request, id: id)
            await pending.remove(id)
            return Answer(message: "Job \(id) is canceled; its document had not come.")
        }
        let description = try await jobDescription(id, request)
        try checkOwner(description.user, request, id: id)
        guard !description.job.state.isTerminal else {
            throw IPPRefusal(.notPossible, "Job \(id) is \(description.job.state) and can no longer be canceled.")
        }
        do { _ = try await canceller.cancel(id) } catch {
            throw IPPRefusal(.notPossible, "Job \(id) could not be canceled: \(store.explain(error))")
        }
        return Answer(message: "Job \(id) is canceled.")
    }

    /// Cancel-My-Jobs (PWG 5100.11 §4.2): the user's unfinished jobs on this
    /// role printer, or those of them `job-ids` names.
    func cancelMyJobs(_ request: RolePrinterRequest) async throws(IPPRefusal) -> Answer {
        let named = Set(request.operationAttributes.ints("job-ids").map { JobID(Int64($0)) })
        var canceled = 0
        for waiting in await pending.all(role: request.role) where waiting.user == request.user && (named.isEmpty || named.contains(waiting.id)) {
            await pending.remove(waiting.id)
            canceled += 1
        }
        let jobs: [PrintJob]
        do { jobs = try await store.jobs(role: request.role) } catch {
            throw IPPRefusal(.internalError, "The jobs of \(request.role) could not be read: \(store.explain(error))")
        }
        for job in jobs where named.isEmpty || named.contains(job.id) {
            guard (try? await store.submitter(of: job.id)) ?? nil == request.user else { continue }
            if (try? await canceller.cancel(job.id)) != nil { canceled += 1 }
        }
        return Answer(message: "\(canceled) job\(canceled == 1 ? "" : "s") of \(request.user) canceled.")
    }

    /// A job of this role printer, pending its document or in the queue.
    func jobDescription(_ id: JobID, _ request: RolePrinterRequest) async throws(IPPRefusal) -> JobDescription {
        let printerURI = "\(request.base)/ipp/print/\(request.role)"
        let job: PrintJob
        do { job = try await store.job(id) } catch {
            throw IPPRefusal(.notFound, "There is no job \(id) on \(request.role).")
        }
        guard job.role == request.role else { throw IPPRefusal(.notFound, "There is no job \(id) on \(request.role).") }
        let user = (try? await store.submitter(of: id)) ?? nil
        let ahead: Int?
        if job.state.isTerminal { ahead = 0 } else {
            ahead = ((try? await store.jobs(role: request.role)) ?? []).filter { $0.id < id }.count
        }
        return JobDescription(job: job, user: user ?? "anonymous", printerURI: printerURI, position: ahead)
    }

    /// A job made by Create-Job whose document has not come: pending, incoming.
    static func pendingDescription(_ pending: PendingJobs.Pending, printerURI: String) -> [IPPAttribute] {
        [
            .integer("job-id", Int(pending.id.rawValue)),
            .uri("job-uri", "\(printerURI)/\(pending.id)"),
            .uri("job-printer-uri", printerURI),
            .nameValue("job-name", pending.ticket.name),
            .nameValue("job-originating-user-name", pending.user),
            .enumeration("job-state", PrinterJobState.pending.rawValue),
            .keyword("job-state-reasons", "job-incoming"),
            .text("job-state-message", "Waiting for its document (Send-Document)."),
            .integer("copies", pending.ticket.copies),
            .integer("job-impressions-completed", 0),
            .integer("job-printer-up-time", PrinterDescription.seconds(Date())),
            .integer("time-at-creation", PrinterDescription.seconds(pending.createdAt)),
            .dateTime("date-time-at-creation", pending.createdAt),
            .noValue("time-at-processing"),
            .noValue("time-at-completed"),
        ]
    }

    /// Only the user who sent a job may cancel or add to it.
    func checkOwner(_ owner: String, _ request: RolePrinterRequest, id: JobID) throws(IPPRefusal) {
        guard owner == request.user || owner == "anonymous" else {
            throw IPPRefusal(.notAuthorized, "Job \(id) was sent by \(owner), not by \(request.user); only its sender may change it.")
        }
    }
}
