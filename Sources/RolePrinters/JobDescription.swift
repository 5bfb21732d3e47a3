import Foundation
import IPP
import PrintModel

/// A role job as IPP describes it (RFC 8011 §5.3): its state mapped onto
/// IPP's seven, with the reasons and the pages printed.
struct JobDescription: Sendable {
    var job: PrintJob
    var user: String
    var printerURI: String
    var position: Int?

    var jobURI: String { "\(printerURI)/\(job.id)" }

    /// `job-state`: the role job's state in IPP's words.
    var state: PrinterJobState {
        switch job.state {
        case .queued: .pending
        case .held: .pendingHeld
        case .sending, .sent: .processing
        case .waiting: .processingStopped
        case .canceled: .canceled
        case .failed, .aborted, .setAside: .aborted
        case .completed: .completed
        }
    }

    var stateReasons: [String] {
        var reasons: [String]
        switch job.state {
        case .queued: reasons = ["job-queued"]
        case .held: reasons = ["job-hold-until-specified"]
        case .sending: reasons = ["job-transforming"]
        case .sent: reasons = ["job-printing"]
        case .waiting: reasons = ["printer-stopped"] + job.stateReasons.filter { $0 != "none" }
        case .canceled: reasons = ["job-canceled-by-user"]
        case .failed: reasons = ["aborted-by-system"]
        case .aborted, .setAside: reasons = ["aborted-by-system"]
        case .completed: reasons = ["job-completed-successfully"]
        }
        var unique: [String] = []
        for reason in reasons where !unique.contains(reason) { unique.append(reason) }
        return unique
    }

    var stateMessage: String {
        if let error = job.lastError, !error.isEmpty { return error }
        switch job.state {
        case .queued: return "Queued for the role \(job.role)."
        case .completed: return "Printed" + (job.printer.map { " on \($0.name)" } ?? "") + "."
        default: return job.state.description
        }
    }

    func attributes(now: Date = Date()) -> [IPPAttribute] {
        let seconds = PrinterDescription.seconds
        var attributes: [IPPAttribute] = [
            .integer("job-id", Int(job.id.rawValue)),
            .uri("job-uri", jobURI),
            .uri("job-printer-uri", printerURI),
            .nameValue("job-name", job.name),
            .nameValue("job-originating-user-name", user),
            .enumeration("job-state", state.rawValue),
            .keywords("job-state-reasons", stateReasons),
            .text("job-state-message", stateMessage),
            .integer("copies", job.copies),
            .integer("job-impressions-completed", job.impressionsCompleted),
            .integer("job-printer-up-time", seconds(now)),
            .integer("time-at-creation", seconds(job.createdAt)),
            .dateTime("date-time-at-creation", job.createdAt),
        ]
        if let pages = job.pagesExpected { attributes.append(.integer("job-impressions", pages * job.copies)) }
        if state.rawValue >= PrinterJobState.processing.rawValue {
            attributes.append(.integer("time-at-processing", seconds(job.updatedAt)))
        } else {
            attributes.append(.noValue("time-at-processing"))
        }
        if let completedAt = job.completedAt {
            attributes.append(.integer("time-at-completed", seconds(completedAt)))
            attributes.append(.dateTime("date-time-at-completed", completedAt))
        } else {
            attributes.append(.noValue("time-at-completed"))
        }
        if let position { attributes.append(.integer("number-of-intervening-jobs", position)) }
        return attributes
    }

    /// The attributes the Print-Job, Create-Job and Cancel answers carry (RFC 8011 §4.2.1.2).
    func summary() -> [IPPAttribute] {
        attributes().filter { ["job-id", "job-uri", "job-state", "job-state-reasons", "job-state-message"].contains($0.name) }
    }
}
