import ArgumentParser
import CommandLineOutput
import Foundation
import Spooler
import PrintModel
import Store

/// `kioskprint jobs ...`: the operator's view of the queue (Apple's Print Center).
struct JobsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "jobs",
        abstract: "List, show, cancel, retry and purge jobs.",
        subcommands: [ListJobsCommand.self, ShowJobCommand.self, CancelJobCommand.self, RetryJobCommand.self, PurgeJobsCommand.self],
        defaultSubcommand: ListJobsCommand.self)
}

/// `kioskprint jobs [list] [--all] [--json]`.
struct ListJobsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "The queue, oldest first: state, printer, role, pages, age and last error.")

    @Flag(help: "Include finished jobs (completed, failed, canceled, aborted).")
    var all = false

    @Flag(help: "Print JSON instead of a table.")
    var json = false

    @Option(help: "Show at most this many jobs, the newest.")
    var limit: Int = 50

    @Option(help: "Show only jobs older than this job id (the next page back).")
    var before: Int64?

    @OptionGroup var database: DatabaseOptions

    func validate() throws {
        guard (1...10_000).contains(limit) else {
            throw ValidationError("--limit must be 1 to 10000; page back with --before ID for older jobs.")
        }
    }

    func run() async throws {
        let store = try database.openExisting()
        let filter: KioskStore.JobFilter = all ? .all : .unfinished
        let jobs = try await store.jobs(filter, limit: limit, before: before.map { JobID($0) })
        if json {
            print(try JSONOutput.encode(jobs.map(JobJSON.init)))
            return
        }
        guard !jobs.isEmpty else {
            print(all ? "No jobs." : "No jobs waiting or printing. `kioskprint jobs --all` shows finished ones too.")
            return
        }
        var table = TextTable("ID", "STATE", "ROLE", "PRINTER", "PAGES", "AGE", "NAME", "LAST ERROR")
        let now = Date()
        for job in jobs {
            let pages = job.impressionsExpected.map { "\(job.impressionsCompleted)/\($0)" } ?? "\(job.impressionsCompleted)"
            table.add("\(job.id)", job.state.description, job.role.description, job.printer?.name ?? "-", pages,
                      Self.age(now.timeIntervalSince(job.createdAt)), job.name, job.lastError.map { Self.short($0) } ?? "")
        }
        print(table.render())
        // A first page that does not hold them all says how to see the older ones.
        if before == nil, let first = jobs.first, jobs.count == limit {
            let matching = try await store.jobCounts(filter).values.reduce(0, +)
            if matching > jobs.count {
                print("Showing the newest \(jobs.count) of \(matching). Older ones: kioskprint jobs\(all ? " --all" : "") "
                    + "--before \(first.id)")
            }
        }
    }

    static func age(_ seconds: TimeInterval) -> String {
        switch seconds {
        case ..<60: "\(Int(seconds))s"
        case ..<3600: "\(Int(seconds / 60))m"
        case ..<86400: "\(Int(seconds / 3600))h"
        default: "\(Int(seconds / 86400))d"
        }
    }

    static func short(_ text: String) -> String { text.count > 80 ? String(text.prefix(77)) + "..." : text }
}

/// `kioskprint jobs show ID`.
struct ShowJobCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "show", abstract: "Everything known about one job.")

    @Argument(help: "The job's id.") var id: Int64
    @Flag(help: "Print JSON.") var json = false
    @OptionGroup var database: DatabaseOptions

    func run() async throws {
        let job = try await CLIError.wrapAsync { try await database.openExisting().job(JobID(id)) }
        if json {
            print(try JSONOutput.encode(JobJSON(job)))
            return
        }
        var lines: [(String, String)] = [
            ("Job", "\(job.id) \"\(job.name)\""), ("State", job.state.description), ("Role", job.role.description),
            ("Content", Self.describe(job.content)), ("Copies", "\(job.copies)"),
            ("Created", job.createdAt.formatted(date: .numeric, time: .standard)),
        ]
        if let printer = job.printer { lines.append(("Printer", "\(printer.name) (\(printer.uri))")) }
        if let id = job.printerJobID { lines.append(("Printer's job", "\(id)")) }
        if let lengths = job.cutLengths, !lengths.isEmpty {
            lines.append(("Cut at", lengths.map { String(format: "%.2f mm", Double($0) / 100) }.joined(separator: ", ")))
        }
        lines.append(("Pages printed", "\(job.impressionsCompleted)\(job.impressionsExpected.map { " of \($0)" } ?? "")"))
        if job.attempts > 0 { lines.append(("Attempts", "\(job.attempts)")) }
        if !job.stateReasons.isEmpty { lines.append(("Reasons", job.stateReasons.joined(separator: ", "))) }
        if let error = job.lastError { lines.append(("Last error", error)) }
        if let done = job.completedAt { lines.append(("Ended", done.formatted(date: .numeric, time: .standard))) }
        lines.append(("Marker", job.marker))
        let width = lines.map(\.0.count).max() ?? 0
        for (label, value) in lines {
            print(label + ":" + String(repeating: " ", count: width - label.count + 2) + value)
        }
    }

    static func describe(_ content: JobContent) -> String {
        switch content {
        case .template(let name, _): "template \(name)"
        case .document(let path, let format): "\(format) file \(path)"
        case .unreadable(let kind): "content this version cannot read (\(kind))"
        }
    }
}

/// `kioskprint jobs cancel ID`.
struct CancelJobCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cancel", abstract: "Cancel a job: at once if it has not reached the printer, else at the printer too.")

    @Argument(help: "The job's id.") var id: Int64
    @OptionGroup var database: DatabaseOptions

    func run() async throws {
        let canceller = JobCanceller(store: try database.openExisting())
        switch try await CLIError.wrapAsync({ try await canceller.cancel(JobID(id)) }) {
        case .canceled(let job):
            print("Job \(job.id) \"\(job.name)\" is canceled; it had not reached a printer.")
        case .marked(let job):
            print("Job \(job.id) is marked for canceling; the spooler stops it before sending it.")
        case .canceledAtPrinter(let job, let printerJobID):
            print("Job \(job.id) \"\(job.name)\" canceled at \(job.printer?.name ?? "the printer") (its job \(printerJobID)).")
        case .printerDidNotAnswer(let job, let reason):
            print("Job \(job.id) is marked for canceling; the printer did not take the cancel now (\(reason)). "
                  + "The spooler asks it again.")
        }
    }
}

/// `kioskprint jobs retry ID`.
struct RetryJobCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "retry", abstract: "Send a failed, aborted or canceled job again (it joins the end of the queue).")

    @Argument(help: "The job's id.") var id: Int64
    @OptionGroup var database: DatabaseOptions

    func run() async throws {
        let job = try await CLIError.wrapAsync { try await database.openExisting().retry(JobID(id)) }
        print("Job \(job.id) \"\(job.name)\" is queued again for the role \(job.role).")
    }
}

/// A job as `--json` prints it.
struct JobJSON: Encodable {
    var id: Int64
    var name: String
    var state: String
    var role: String
    var printer: String?
    var printerURI: String?
    var printerJobID: Int?
    var impressionsCompleted: Int
    var impressionsExpected: Int?
    var cutLengths: [Int]?
    var attempts: Int
    var lastError: String?
    var createdAt: Date
    var completedAt: Date?

    init(_ job: PrintJob) {
        id = job.id.rawValue; name = job.name; state = job.state.rawValue; role = job.role.description
        printer = job.printer?.name; printerURI = job.printer?.uri; printerJobID = job.printerJobID
        impressionsCompleted = job.impressionsCompleted; impressionsExpected = job.impressionsExpected
        cutLengths = job.cutLengths; attempts = job.attempts; lastError = job.lastError
        createdAt = job.createdAt; completedAt = job.completedAt
    }
}
