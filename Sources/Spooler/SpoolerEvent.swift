public import PrintModel

/// What the spooler reports as it works: one event per job outcome, and
/// printer trouble once per change (not once per retry). The agent logs
/// them; the command line prints them.
public enum SpoolerEvent: Sendable, CustomStringConvertible {
    /// A job is going to a printer, in this format, cut at these lengths.
    case sending(PrintJob, to: JobPrinter, format: String, cutLengths: [Length])
    /// A job reached its end: completed, failed, canceled or aborted.
    case finished(PrintJob)
    /// A send failed in a way that may pass; the job is tried again after `after`.
    case retrying(PrintJob, reason: String, after: Duration)
    /// A role's printer needs attention or cannot be reached; jobs wait.
    case printerTrouble(role: Role, printer: JobPrinter, reason: String)
    /// The printer prints but warns of something a person should see to
    /// soon: `media-low` (paper near its end).
    case printerWarning(role: Role, printer: JobPrinter, reasons: [String])
    /// A saved printer that could not be reached was found again by its UUID at a new address.
    case printerMoved(role: Role, printer: JobPrinter, from: String, to: String)
    /// A job's row could not be read by this version; it is set aside and the role goes on.
    case setAside(JobID, role: Role, reason: String)
    /// A role's loop failed (the store, the disk); it starts again after `restartIn`.
    case roleFailed(Role, reason: String, restartIn: Duration)
    /// The trouble is over; waiting jobs go on.
    case printerRecovered(role: Role, printer: JobPrinter)
    /// The primary stayed in trouble past the grace time; the job goes to a backup.
    case failover(PrintJob, from: JobPrinter, to: JobPrinter)
    /// After a restart, a job was found at the printer by its marker and is followed, not resent.
    case recovered(PrintJob, printerJobID: Int)
    /// The printer refused the exact paper size (media-col); the job was sent with a named size.
    case namedMediaFallback(PrintJob, media: String)
    /// Whether the job reached paper cannot be known (a send broke off, a
    /// printer forgot it); the role's rule decides what happens to it.
    case unknownFate(PrintJob, rule: UnknownFateRule, reason: String)
    /// The printer would print the job on other paper than asked (it said it
    /// would ignore or replace these attributes); the role's rule decides.
    case mediaChanged(PrintJob, printer: JobPrinter, attributes: [String], rule: MediaChangeRule)

    public var description: String {
        switch self {
        case .sending(let job, let printer, let format, let lengths):
            let cut = lengths.isEmpty ? "" : ", cut at " + lengths.map(\.description).joined(separator: ", ")
            return "job \(job.id) \"\(job.name)\": sending to \(printer.name) as \(format)\(cut)"
        case .finished(let job):
            let outcome = job.state == .completed ? "completed" : "\(job.state)"
            let detail = job.state == .completed ? "" : job.lastError.map { ": \($0)" } ?? ""
            let pages = job.impressionsCompleted > 0 ? ", \(job.impressionsCompleted) page(s)" : ""
            let printer = job.printer.map { " on \($0.name)" } ?? ""
            return "job \(job.id) \"\(job.name)\" (\(job.role)) \(outcome)\(printer)\(pages)\(detail)"
        case .retrying(let job, let reason, let after):
            return "job \(job.id) \"\(job.name)\": \(reason) Trying again in \(after.formatted(.units(allowed: [.seconds, .milliseconds], width: .abbreviated)))."
        case .printerTrouble(let role, let printer, let reason):
            return "printer \(printer.name) (role \(role)) needs attention: \(reason) Jobs for \(role) wait until it is fixed."
        case .printerWarning(let role, let printer, let reasons):
            let words = reasons.map { $0 == "media-low" ? "paper near its end (media-low)" : $0 }.joined(separator: ", ")
            return "printer \(printer.name) (role \(role)) warns of \(words); it still prints. Load new paper soon."
        case .printerMoved(let role, let printer, let from, let to):
            return "printer \(printer.name) (role \(role)) moved: it no longer answers at \(from) but announces itself at \(to); "
                + "saved there, and its jobs print there."
        case .setAside(let id, let role, let reason):
            return "job \(id) (role \(role)) was set aside: \(reason). It is kept (kioskprint jobs show \(id)); the role's other jobs go on."
        case .roleFailed(let role, let reason, let restartIn):
            return "the \(role) role stopped printing: \(reason) It starts again in "
                + "\(restartIn.formatted(.units(allowed: [.seconds, .milliseconds], width: .abbreviated))); "
                + "if this repeats, check the disk and the database (kioskprint status)."
        case .printerRecovered(let role, let printer):
            return "printer \(printer.name) (role \(role)) is ready again; waiting jobs go on."
        case .failover(let job, let from, let to):
            return "job \(job.id) \"\(job.name)\": \(from.name) stayed unavailable; printing on the backup \(to.name)."
        case .recovered(let job, let printerJobID):
            return "job \(job.id) \"\(job.name)\": found at \(job.printer?.name ?? "the printer") as its job \(printerJobID) after a restart; following it, not sending it again."
        case .namedMediaFallback(let job, let media):
            return "job \(job.id) \"\(job.name)\": the printer refused the exact paper size; sent with its named size \(media)."
        case .unknownFate(let job, let rule, let reason):
            let outcome = rule == .hold
                ? "it is held until an operator retries (kioskprint jobs retry \(job.id)) or cancels it"
                : "it is printed again, marked REPRINT"
            return "job \(job.id) \"\(job.name)\": \(reason) Whether it reached paper is unknown; \(outcome) (role rule \(rule))."
        case .mediaChanged(let job, let printer, let attributes, let rule):
            let outcome = rule == .warn
                ? "it prints on what the printer has (role \(job.role): media-changes = \"warn\")"
                : "it is not printed there (role \(job.role): media-changes = \"fail\"); load the paper it asks for or give the role a printer that has it"
            return "job \(job.id) \"\(job.name)\": \(printer.name) would change \(attributes.joined(separator: ", ")) "
                + "and print it on other paper than asked; \(outcome)."
        }
    }
}

extension SpoolerEvent {
    /// The event with its job's data left out (a template's JSON, kept as
    /// `{}`): what the event journal keeps. The stream shows a job's state,
    /// never its data, and a thousand 30-item receipts' JSON held for it
    /// would be megabytes of memory for nothing.
    public var withoutJobData: SpoolerEvent {
        func light(_ job: PrintJob) -> PrintJob {
            guard case .template(let name, _) = job.content else { return job }
            var job = job
            job.content = .template(name: name, dataJSON: "{}")
            return job
        }
        switch self {
        case .sending(let job, let to, let format, let cuts): return .sending(light(job), to: to, format: format, cutLengths: cuts)
        case .finished(let job): return .finished(light(job))
        case .retrying(let job, let reason, let after): return .retrying(light(job), reason: reason, after: after)
        case .failover(let job, let from, let to): return .failover(light(job), from: from, to: to)
        case .recovered(let job, let id): return .recovered(light(job), printerJobID: id)
        case .namedMediaFallback(let job, let media): return .namedMediaFallback(light(job), media: media)
        case .unknownFate(let job, let rule, let reason): return .unknownFate(light(job), rule: rule, reason: reason)
        case .mediaChanged(let job, let printer, let attributes, let rule):
            return .mediaChanged(light(job), printer: printer, attributes: attributes, rule: rule)
        case .printerTrouble, .printerWarning, .printerMoved, .setAside, .roleFailed, .printerRecovered: return self
        }
    }
}
