import BenchSupport
import Foundation
import Simulator
import Store

/// `kioskprint-bench hostile`: the release agent (`kioskprint run`, as the
/// agent bench starts it) given issue 14's hostile inputs one after another
/// through its watched folders, a good receipt dropped after each. Each
/// hostile file must end in `failed/` with its reason (or print within the
/// limits), each good receipt must print, and the agent's peak resident
/// memory is read from /proc beside a calm run of the same good receipts
/// alone (a fresh agent each). Target: under 150 MB. Needs root (the lab).
enum HostileBench {
    /// How long one case may take to reach its verdict before the bench gives up.
    static let verdictLimit = Duration.seconds(180)

    struct Row: Sendable {
        var title: String
        var verdict: String
        var elapsed: Duration
        var footprint: AgentFootprint
    }

    struct Run: Sendable {
        var rows: [Row] = []
        var goodPrinted = 0
        var final: AgentFootprint?
    }

    /// Runs in the lab `LabOptions.enterLab` set up: root, its own loopback;
    /// `kioskprint` is the agent's binary.
    static func run(kioskprint: String) async -> Never {
        let facts = MachineFacts.current()
        var passed = false
        do {
            let lab = try await AgentLab.start(kioskprint: kioskprint)
            defer { lab.stop() }
            let cases = try HostileCase.all()
            progress("calm run: \(cases.count) good receipts")
            let calm = try await feed(site: lab.site, cases: cases.map { _ in nil })
            progress("hostile run: \(cases.count) hostile files, a good receipt after each")
            let hostile = try await feed(site: lab.site, cases: cases)
            print(facts.text + "  load \(MachineFacts.loadAverage()) (1 min, at the end)")
            print("")
            print(report(hostile: hostile, calm: calm, good: cases.count).joined(separator: "\n"))
            passed = hostile.goodPrinted == cases.count && calm.goodPrinted == cases.count
                && hostile.rows.allSatisfy { !$0.verdict.hasPrefix("NO VERDICT") }
        } catch {
            FileHandle.standardError.write(Data("kioskprint-bench hostile: \(error)\n".utf8))
            exit(1)
        }
        exit(passed ? 0 : 1)
    }

    /// One fresh agent given `cases` in turn (nil: no hostile file), each
    /// followed by a good receipt that must complete before the next.
    static func feed(site: AgentSite, cases: [HostileCase?]) async throws -> Run {
        let notify = try NotifySocket(receiveTimeout: .seconds(1))
        let log = site.folder.appendingPathComponent("hostile-agent-\(UUID().uuidString.prefix(6)).log").path
        let started = try await offloaded { try site.start(notify: notify, log: log) }
        let agent = started.agent
        defer { _ = site.stop(agent) }
        let receipt = Data(try ReceiptSample.json().utf8)
        var run = Run()
        for (index, hostile) in cases.enumerated() {
            if let hostile {
                let began = ContinuousClock.now
                let verdict = try await verdict(of: hostile, site: site, agent: agent)
                run.rows.append(Row(title: hostile.title, verdict: verdict, elapsed: ContinuousClock.now - began,
                                    footprint: try AgentFootprint.read(pid: agent.pid)))
            }
            let completedBefore = try await completed(site)
            try site.drop(receipt, as: "good-\(UUID().uuidString.prefix(8))-\(index).json", into: site.receipts)
            try await pollUntil("good receipt \(index + 1) to print", within: verdictLimit) {
                guard agent.isRunning else { throw BenchError("the agent exited (log \(log))") }
                return try await completed(site) > completedBefore
            }
            run.goodPrinted += 1
        }
        run.final = try AgentFootprint.read(pid: agent.pid)
        return run
    }

    /// Drops `hostile` and waits for what became of it: a new reason in
    /// `failed/`, or a queued job that finished.
    static func verdict(of hostile: HostileCase, site: AgentSite, agent: Spawned) async throws -> String {
        let folder = hostile.folder == .receipts ? site.receipts : site.labels
        if let (name, markup) = hostile.template {
            try Data(markup.utf8).write(to: site.folder.appendingPathComponent("templates/\(name).xml"))
        }
        let reasonsBefore = Set(reasons(in: folder))
        let jobsBefore = try await site.store.jobs(.all, limit: 1).first?.id
        try drop(hostile.contents, named: hostile.name, into: folder)
        var verdict = "NO VERDICT within \(verdictLimit)"
        _ = try? await pollUntil("a verdict on \(hostile.title)", within: verdictLimit) {
            guard agent.isRunning else { throw BenchError("the agent exited on \(hostile.title)") }
            if let reason = Set(reasons(in: folder)).subtracting(reasonsBefore).first {
                let text = (try? String(contentsOfFile: folder + "/failed/" + reason, encoding: .utf8)) ?? ""
                verdict = "refused: " + String(text.split(separator: "\n").first ?? "").prefix(160)
                return true
            }
            guard let job = try await site.store.jobs(.all, limit: 1).first, job.id != jobsBefore,
                  job.state.isTerminal else { return false }
            verdict = "queued as job \(job.id), \(job.state)" + (job.lastError.map { ": " + $0.prefix(90) } ?? "")
            return true
        }
        return verdict
    }

    /// The `.error` files in `failed/`.
    static func reasons(in folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder + "/failed")) ?? []).filter { $0.hasSuffix(".error") }
    }

    static func completed(_ site: AgentSite) async throws -> Int {
        try await site.store.jobCounts(.states([.completed])).values.reduce(0, +)
    }

    /// Writes the file under a hidden temporary name, then renames it into
    /// the folder under `name`, which may be any bytes (not only UTF-8).
    static func drop(_ contents: Data, named name: [UInt8], into folder: String) throws {
        let temporary = folder + "/.hostile-\(UUID().uuidString.prefix(8)).tmp"
        try contents.write(to: URL(fileURLWithPath: temporary))
        let target = Array(folder.utf8) + [UInt8(ascii: "/")] + name + [0]
        let renamed = target.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { rename(temporary, $0.baseAddress!) }
        }
        guard renamed == 0 else { throw BenchError("rename into \(folder): \(String(cString: strerror(errno)))") }
    }

    static func report(hostile: Run, calm: Run, good: Int) -> [String] {
        func megabytes(_ kib: Int) -> String { String(format: "%.1f", Double(kib) / 1024) }
        var table = ColumnTable("hostile input", "what became of it", "ms", "RSS MB after", "peak MB so far")
        for row in hostile.rows {
            table.rows.append([row.title, row.verdict, Millis.text(row.elapsed),
                               megabytes(row.footprint.rssKiB), megabytes(row.footprint.peakKiB)])
        }
        var lines = ["Hostile input: the release agent given each file below through its watched folders, "
            + "a good 30-item receipt dropped (and printed) after each.", ""]
        lines += table.render()
        lines.append("")
        var summary = ColumnTable("agent", "good receipts printed", "RSS MB at the end", "peak RSS MB (VmHWM)")
        for (title, run) in [("hostile run", hostile), ("calm run (good receipts alone)", calm)] {
            summary.rows.append([title, "\(run.goodPrinted) of \(good)", megabytes(run.final?.rssKiB ?? 0),
                                 megabytes(run.final?.peakKiB ?? 0)])
        }
        lines += summary.render()
        lines.append("Target: peak under 150 MB in the hostile run. MB = 2^20 bytes; a fresh agent for each run.")
        return lines
    }
}
