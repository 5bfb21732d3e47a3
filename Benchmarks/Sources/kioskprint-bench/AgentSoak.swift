import BenchSupport
import Foundation
import PrintModel
import Simulator
@_spi(Testing) import Store
import Templates

/// Section 3: one agent process given `jobs` jobs through its triggers, as
/// a kiosk would over weeks: 9 in 10 as files dropped into the two watched
/// folders (receipts and shipping labels, alternately), 1 in 10 as presses of
/// the ticket button. They come in batches; each batch is let drain (every
/// file claimed, queued and moved to done/, every press queued, the queue
/// empty) before the next, so folders and spool stay small. After every
/// `sampleEvery` jobs the agent's RSS and fds are read.
struct AgentSoak: Sendable {
    struct Point: Sendable {
        /// Jobs fed and drained so far.
        var jobs: Int
        var footprint: AgentFootprint
        /// Time spent feeding and draining so far (the bench's own checks at each point left out).
        var working: Duration
        /// Jobs a second since the previous point; nil for the point at READY.
        var jobsPerSecond: Double?
        /// The database file and its WAL, bytes: what SQLite's page caches fill from.
        var databaseBytes: Int64 = 0
    }

    struct Checks: Sendable {
        var inStore: Int
        var completed: Int
        /// Jobs that did not end completed: "job 12 aborted: reason".
        var notCompleted: [String]
        var atPrinters: Int
        /// Bytes the recording printers keep (the documents and records).
        var printerBytes: Int64
        /// Files in each folder's done/, receipts then labels.
        var done: [Int]
        /// Whatever is left in processing/, failed/ or the folders themselves.
        var leftOver: [String]
        var counter: Int?
        /// Log lines at warning level or above, and the first few of them.
        var warnings: Int
        var firstWarnings: [String]
    }

    var requested: Int
    var feed: Feed
    var sampleEvery: Int
    var batch: Int
    var fed = 0
    var receipts = 0
    var labels = 0
    var presses = 0
    var points: [Point] = []
    var working: Duration = .zero
    var checks: Checks?
    var stop: (elapsed: Duration, status: Int32)?
    /// Why the soak ended early, if it did.
    var failure: String?

    /// How long one batch may take to drain before the soak gives up.
    static let drainLimit = Duration.seconds(600)
    static let pollInterval = Duration.milliseconds(20)

    /// Every 1,000 jobs for a full run; for a shorter run every tenth of it (at least 100).
    static func plan(jobs: Int) -> (sampleEvery: Int, batch: Int) {
        let every = max(100, min(1000, jobs / 10 / 100 * 100))
        return (every, every > 500 ? every / 2 : every)
    }

    /// What the soak feeds: the realistic mix, or one kind alone (`--only`),
    /// to tell which path a growth comes from.
    enum Feed: String, Sendable, CaseIterable {
        case mixed, receipt, label, ticket

        /// The kind of job `number` (from 1): every tenth a ticket, the others receipts and labels in turn.
        func kind(of number: Int, filesSoFar: Int) -> Feed {
            guard self == .mixed else { return self }
            return number % 10 == 0 ? .ticket : (filesSoFar % 2 == 0 ? .receipt : .label)
        }
    }

    static func run(site: AgentSite, jobs: Int, feed: Feed, printers: [RunningPrinter]) async throws -> AgentSoak {
        let (every, batch) = plan(jobs: jobs)
        var soak = AgentSoak(requested: jobs, feed: feed, sampleEvery: every, batch: batch)
        let receiptData = Data(try ReceiptSample.json().utf8)
        guard let labelSample = BuiltInTemplates.all.first(where: { $0.name == "shipping-label" })?.sampleData else {
            throw BenchError("the built-in shipping-label template has no sample data")
        }
        let notify = try NotifySocket(receiveTimeout: .seconds(1))
        let log = site.folder.appendingPathComponent("soak.log").path
        progress("soak: starting the agent")
        let run = try await offloaded { try site.start(notify: notify, log: log) }
        let agent = run.agent
        do {
            soak.points.append(Point(jobs: 0, footprint: try AgentFootprint.read(pid: agent.pid), working: .zero,
                                     databaseBytes: site.databaseBytes))
            var lastPoint = (jobs: 0, working: Duration.zero)
            while soak.fed < jobs {
                let count = min(batch, jobs - soak.fed)
                progress("soak: jobs \(soak.fed + 1)-\(soak.fed + count) of \(jobs)")
                let started = ContinuousClock.now
                for _ in 0..<count {
                    let number = soak.fed + 1
                    let kind = feed.kind(of: number, filesSoFar: soak.receipts + soak.labels)
                    if kind == .ticket {
                        try await site.gpio.press(line: AgentSite.buttonLine, heldFor: .milliseconds(100))
                        soak.presses += 1
                    } else if kind == .receipt {
                        try site.drop(receiptData, as: String(format: "r-%06d.json", number), into: site.receipts)
                        soak.receipts += 1
                    } else {
                        let envelope = #"{"template": "shipping-label", "role": "label", "name": "bench label \#(number)", "data": "#
                            + labelSample + "}"
                        try site.drop(Data(envelope.utf8), as: String(format: "l-%06d.json", number), into: site.labels)
                        soak.labels += 1
                    }
                    soak.fed += 1
                }
                guard agent.isRunning else { throw BenchError("the agent exited during the soak; see \(log)") }
                try await waitForDrain(site: site, presses: soak.presses, agent: agent)
                soak.working += ContinuousClock.now - started
                if soak.fed % every == 0 || soak.fed == jobs {
                    let interval = Millis.value(soak.working - lastPoint.working) / 1000
                    soak.points.append(Point(jobs: soak.fed, footprint: try AgentFootprint.read(pid: agent.pid),
                                             working: soak.working,
                                             jobsPerSecond: Double(soak.fed - lastPoint.jobs) / interval,
                                             databaseBytes: site.databaseBytes))
                    lastPoint = (soak.fed, soak.working)
                }
            }
        } catch {
            soak.failure = "\(error)"
        }
        progress("soak: checking the store, the printers and the folders")
        do {
            soak.checks = try await check(site: site, printers: printers, log: log)
        } catch {
            soak.failure = (soak.failure.map { $0 + "; " } ?? "") + "checks: \(error)"
        }
        if agent.isRunning {
            soak.stop = await (try? offloaded { site.stop(agent) })
        }
        agent.stop()
        return soak
    }

    /// Waits until every file dropped so far has left its folder and
    /// processing/ (queued, then moved to done/ or failed/), the press number
    /// `presses` is queued, and no job is unfinished.
    static func waitForDrain(site: AgentSite, presses: Int, agent: Spawned) async throws {
        let ticketRole = try Role(AgentSite.ticketRole)
        let prefix = "\(AgentSite.ticketTemplate) \(presses) ("
        try await pollUntil("the batch to drain (files queued, presses queued, queue empty)", within: drainLimit,
                            every: pollInterval) {
            guard agent.isRunning else { throw BenchError("the agent exited during the soak") }
            for folder in [site.receipts, site.labels] {
                guard AgentSite.entries(in: folder, excludingSubfolders: true).isEmpty,
                      AgentSite.inProcessing(folder).isEmpty else { return false }
            }
            if presses > 0 {
                guard let last = try await site.store.lastJob(role: ticketRole), last.name.hasPrefix(prefix) else { return false }
            }
            return try await site.store.queueDepth() == 0
        }
    }

    /// The end state: the store, the printers' recordings, the folders, the log.
    static func check(site: AgentSite, printers: [RunningPrinter], log: String) async throws -> Checks {
        let jobs = try await site.store.jobs(includeFinished: true)
        let completed = jobs.filter { $0.state == .completed }
        let notCompleted = jobs.filter { $0.state != .completed }
            .map { "job \($0.id) \($0.state): \($0.lastError ?? "no error recorded")" }
        var atPrinters = 0
        var bytes: Int64 = 0
        for printer in printers {
            let folder = printer.receivedDirectory.path
            let names = try FileManager.default.contentsOfDirectory(atPath: folder)
            atPrinters += names.filter { $0.hasPrefix("job-") && $0.hasSuffix(".record") }.count
            for name in names {
                let size = (try? FileManager.default.attributesOfItem(atPath: folder + "/" + name)[.size] as? NSNumber)?.int64Value
                bytes += size ?? 0
            }
        }
        var done: [Int] = []
        var leftOver: [String] = []
        for folder in [site.receipts, site.labels] {
            let name = (folder as NSString).lastPathComponent
            done.append(AgentSite.entries(in: folder + "/done").count)
            leftOver += AgentSite.entries(in: folder, excludingSubfolders: true).map { "\(name)/\($0)" }
            leftOver += AgentSite.inProcessing(folder).map { "\(name)/processing/\($0)" }
            leftOver += ((try? FileManager.default.contentsOfDirectory(atPath: folder + "/failed")) ?? [])
                .map { "\(name)/failed/\($0)" }
        }
        let logLines = ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n")
        let warnings = logLines.filter { line in [" WARNING ", " ERROR ", " CRITICAL "].contains { line.contains($0) } }
        return Checks(inStore: jobs.count, completed: completed.count, notCompleted: notCompleted, atPrinters: atPrinters,
                      printerBytes: bytes, done: done, leftOver: leftOver,
                      counter: try await site.store.currentNumber(of: AgentSite.counter),
                      warnings: warnings.count, firstWarnings: warnings.prefix(3).map(String.init))
    }

    /// The first point after the warm-up: the first that is not the one at READY.
    var warmedUp: Point? { points.dropFirst().first }
    var last: Point? { points.last }
    /// The first point at or past half the jobs fed: growth after it is growth that did not settle.
    var halfway: Point? { points.dropFirst().first { $0.jobs * 2 >= fed } }
}
