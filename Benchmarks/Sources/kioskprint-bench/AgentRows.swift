import BenchSupport
import Foundation
import Simulator

/// The agent bench's tables: start-up, idle footprint and the soak's
/// verdicts in the bench's usual table, then the soak's footprint after
/// every `sampleEvery` jobs in a table of its own.
struct AgentRows {
    let startup: AgentStartup
    let compared: ComparedBuild?
    let cups: Result<CupsStartup, BenchError>
    let soak: AgentSoak
    let starts: Int

    /// Issue targets for the agent.
    static let readyTarget = Duration.milliseconds(500)
    static let rssTargetKiB = 40 * 1024
    /// The soak's tolerance: end against the first point after warm-up.
    static let growthTolerance = 0.10

    private var cupsFigures: CupsStartup? { if case .success(let cups) = cups { cups } else { nil } }

    func add(to table: inout BenchTable) {
        addStartup(to: &table)
        addIdle(to: &table)
        addSoak(to: &table)
    }

    /// `med 120 / p90 135 / max 160`, in milliseconds.
    static func spread(_ values: [Duration]) -> String {
        let sample = Sample(values)
        guard sample.count > 0 else { return "none measured" }
        return "med \(Millis.text(sample.median)) / p90 \(Millis.text(sample.percentile(0.9))) / max \(Millis.text(sample.max))"
    }

    private func addStartup(to table: inout BenchTable) {
        table.section("1. Start to READY=1: \(starts) starts of `kioskprint run --config X` (2 folders, 1 button, "
            + "1 light, 3 roles with printers), each stopped with SIGTERM (ms)")
        let ours = Sample(startup.toReady)
        var verdict = "target < \(Millis.text(Self.readyTarget)) ms: "
        if let median = ours.median, let max = ours.max {
            verdict += median < Self.readyTarget ? (max < Self.readyTarget ? "met (max too)" : "met (median; max not)") : "NOT met"
        }
        let startNote = table.footnote("The release kioskprint (the root package's, or --kioskprint), started with posix_spawn, $NOTIFY_SOCKET "
            + "set to a datagram socket of the bench's own and the GPIO stand-in preloaded (LD_PRELOAD), against the "
            + "site of section 3 with an empty queue: timed from just before posix_spawn to recv returning the datagram "
            + "with READY=1 (\"\(startup.readyMessage.replacingOccurrences(of: "\n", with: "\\n"))\"), which the agent "
            + "sends once its database is open, its configuration checked and its folders, button and light started. "
            + "The first of the \(starts) starts took \(Millis.text(startup.toReady.first)) ms (no untimed warm-up).")
        var cupsNote = ""
        let alternative: String, figure: String
        switch cups {
        case .success(let cups):
            alternative = "cupsd -f, private, no queues: start -> accepts connections"
            figure = Self.spread(cups.toAccepting)
            let ratio = Sample(cups.toAccepting).median.flatMap { theirs in
                ours.median.map { Millis.value(theirs) / Millis.value($0) }
            }
            cupsNote = "; " + table.footnote("\(cups.version), the print bench's private cupsd (PrivateCups: cupsd -f "
                + "-c cupsd.conf -s cups-files.conf under a guard shell, every path private, LogLevel warn, no queues, "
                + "a loopback port of its own), timed from the call that writes its configuration and spawns it to "
                + "the first connection its port accepts, asked every 10 ms (so up to 10 ms late). cupsd has no "
                + "printers here, so this is its floor; it is the daemon alone, without cups-browsed or a queue's "
                + "first job." + (ratio.map { String(format: " Median cupsd / median KioskPrint: x%.1f.", $0) } ?? ""))
        case .failure(let error):
            alternative = "cupsd -f, private"
            figure = "not measured"
            cupsNote = "; cupsd could not be run here: \(error)"
        }
        table.add("spawn -> READY=1 (sd_notify)", Self.spread(startup.toReady), alternative, figure,
                  note: "\(verdict) \(startNote)\(cupsNote)")
        let badExits = startup.badExits.isEmpty ? "every exit status 0"
            : "\(startup.badExits.count) exit(s) not 0: \(startup.badExits.map(String.init).joined(separator: ", "))"
        table.add("SIGTERM -> exit", Self.spread(startup.toExit), "-", "-",
                  note: badExits + "; " + table.footnote("From kill(SIGTERM) to waitid seeing the exit: the agent "
                    + "stops its triggers, finishes what it was queueing, tells systemd STOPPING=1 and closes the "
                    + "database. Not measured for cupsd: the guard shell that runs it answers SIGTERM only between "
                    + "its 0.2 s sleeps."))
    }

    private func addIdle(to table: inout BenchTable) {
        let idle = startup.idle.footprint
        let wait = Millis.value(startup.idleWait) / 1000
        table.section(String(format: "2. Idle footprint, %.0f s after READY=1 with nothing to do (the last start of section 1)", wait))
        let cupsIdle = cupsFigures?.idle?.footprint
        let cupsLabel = cupsFigures == nil ? "-" : String(format: "cupsd, %.0f s after accepting", wait)
        let target = idle.rssKiB < Self.rssTargetKiB ? "met" : "NOT met"
        let note = table.footnote("From /proc/PID/status (VmRSS, VmHWM, RssAnon, Threads) and /proc/PID/fd of the "
            + "agent process itself. Heap = RssAnon (heap, stacks, anonymous maps); the rest of VmRSS is the binary and "
            + "shared libraries mapped from files. MB = 2^20 bytes. By mapping (from /proc/PID/smaps, code = executable "
            + "mappings): \(startup.idle.mapped.summary(largest: 8)).")
        table.add("resident memory (VmRSS)", "\(Megabytes.text(idle.rssKiB)) (heap \(Megabytes.text(idle.anonKiB)))",
                  cupsLabel, cupsIdle.map { "\(Megabytes.text($0.rssKiB)) (heap \(Megabytes.text($0.anonKiB)))" } ?? "-",
                  note: "target < \(Self.rssTargetKiB / 1024) MB: \(target) \(note)")
        if let compared {
            let ratio = Double(compared.idle.footprint.rssKiB) / Double(max(idle.rssKiB, 1))
            table.add("resident memory, beside another build", Megabytes.text(idle.rssKiB),
                      "kioskprint --compare-with, same site and wait",
                      "\(Megabytes.text(compared.idle.footprint.rssKiB)) (heap \(Megabytes.text(compared.idle.footprint.anonKiB)))",
                      note: String(format: "x%.2f; ", ratio) + table.footnote("The other build: \(compared.path), started "
                        + "once on the same site after section 1 (its database and folders as section 1 left them) "
                        + "and read after the same wait. By mapping: \(compared.idle.mapped.summary(largest: 8))."))
        }
        table.add("peak resident (VmHWM)", Megabytes.text(idle.peakKiB), cupsLabel,
                  cupsIdle.map { Megabytes.text($0.peakKiB) } ?? "-")
        table.add("open file descriptors", "\(idle.fds)", cupsLabel, cupsIdle.map { "\($0.fds)" } ?? "-",
                  note: table.footnote("The agent's idle descriptors: \(idle.kindsText)."))
        table.add("threads", "\(idle.threads)", cupsLabel, cupsIdle.map { "\($0.threads)" } ?? "-")
        table.add("CPU time while idle", "\(startup.idle.cpuMilliseconds) ms in \(Int(wait)) s", cupsLabel,
                  cupsFigures?.idle.map { "\($0.cpuMilliseconds) ms in \(Int(wait)) s" } ?? "-",
                  note: table.footnote("User and system time from /proc/PID/stat (utime + stime, in 10 ms ticks), "
                    + "from READY=1 (cupsd: from accepting) to the idle reading: what the process does with nothing "
                    + "to do."))
        if let compared {
            table.add("CPU time while idle, beside another build", "\(startup.idle.cpuMilliseconds) ms in \(Int(wait)) s",
                      "kioskprint --compare-with, same site and wait", "\(compared.idle.cpuMilliseconds) ms in \(Int(wait)) s")
        }
    }

    private func addSoak(to table: inout BenchTable) {
        let only = soak.feed == .mixed ? "" : " (--only \(soak.feed.rawValue): every job a \(soak.feed.rawValue), not the mix below)"
        table.section("3. Soak: \(soak.requested) jobs through the folders and the button, one agent process, "
            + "in batches of \(soak.batch), each let drain" + only)
        let feedNote = table.footnote("The mix: 9 jobs in 10 dropped as files (written as .NAME.tmp, then renamed), alternately "
            + "the receipt's sample data into a folder with template = \"receipt\" (role receipt, 80 mm recording "
            + "printer) and a JSON envelope for the built-in shipping-label into a folder of envelopes (role label, "
            + "4x6 recording printer); every tenth a press of the take-a-number button through the GPIO stand-in "
            + "(held 100 ms), printing a small custom ticket with a counter (role ticket, the 80 mm printer). "
            + "Both folders have done-limit = \(AgentSite.doneLimit). A batch has drained when both folders and their "
            + "processing/ are empty, the store holds the batch's last ticket number and no job is unfinished "
            + "(polled every \(Millis.text(AgentSoak.pollInterval)) ms). The printers record every job they receive, "
            + "with no delay.")
        guard let checks = soak.checks else {
            table.add("soak", "did not finish", "-", "-", note: "\(soak.failure ?? "no checks") \(feedNote)")
            return
        }
        let fedText = "\(soak.fed) fed: \(soak.receipts) receipts, \(soak.labels) labels, \(soak.presses) tickets"
        let allCompleted = checks.completed == soak.fed && checks.inStore == soak.fed && checks.notCompleted.isEmpty
        table.add("jobs completed / not completed", "\(checks.completed) / \(checks.notCompleted.count)", "-", "-",
                  note: (allCompleted ? "every job fed completed" : "NOT every job completed: \(fedText), \(checks.inStore) in the store"
                    + (checks.notCompleted.first.map { "; first: \($0)" } ?? "")) + " (\(fedText)) \(feedNote)")
        table.add("jobs at the printers", "\(checks.atPrinters)", "-", "-",
                  note: (checks.atPrinters == checks.inStore ? "== jobs queued (\(checks.inStore))" : "!= jobs queued (\(checks.inStore))")
                    + String(format: "; the printers keep %.0f MB of documents and records", Double(checks.printerBytes) / 1_048_576))
        table.add("ticket counter", checks.counter.map(String.init) ?? "none", "-", "-",
                  note: checks.counter == soak.presses ? "== presses (\(soak.presses))" : "!= presses (\(soak.presses))")
        let doneOK = checks.done.allSatisfy { $0 <= AgentSite.doneLimit }
        table.add("files in done/", "receipts \(checks.done[0]), labels \(checks.done[1])", "-", "-",
                  note: !doneOK ? "MORE than the done-limit (\(AgentSite.doneLimit))"
                    : min(soak.receipts, soak.labels) > AgentSite.doneLimit ? "at most the done-limit (\(AgentSite.doneLimit)): trimmed"
                    : "at most the done-limit (\(AgentSite.doneLimit)); too few files fed to need trimming")
        table.add("left in the folders, processing/, failed/", checks.leftOver.isEmpty ? "nothing" : "\(checks.leftOver.count)",
                  "-", "-", note: checks.leftOver.prefix(5).joined(separator: ", "))
        let seconds = Millis.value(soak.working) / 1000
        table.add("throughput, feeding + draining", String(format: "%.1f jobs/s (%d in %.1f s)", Double(soak.fed) / seconds, soak.fed, seconds),
                  "-", "-", note: "batched: each batch waits for the one before to drain")
        if let warm = soak.warmedUp, let end = soak.last {
            let sameNote = warm.jobs == end.jobs ? " (one point only: run more jobs for a verdict)" : ""
            table.add("RSS: end vs after \(warm.jobs) jobs", Self.growth(from: warm.footprint.rssKiB, to: end.footprint.rssKiB, megabytes: true),
                      "-", "-", note: Self.verdict(from: warm.footprint.rssKiB, to: end.footprint.rssKiB) + sameNote
                        + "; heap " + Self.growth(from: warm.footprint.anonKiB, to: end.footprint.anonKiB, megabytes: true))
            if let half = soak.halfway, half.jobs != warm.jobs, half.jobs != end.jobs {
                table.add("RSS: end vs after \(half.jobs) jobs (second half)",
                          Self.growth(from: half.footprint.rssKiB, to: end.footprint.rssKiB, megabytes: true), "-", "-",
                          note: Self.verdict(from: half.footprint.rssKiB, to: end.footprint.rssKiB) + "; heap "
                            + Self.growth(from: half.footprint.anonKiB, to: end.footprint.anonKiB, megabytes: true)
                            + "; threads \(half.footprint.threads) -> \(end.footprint.threads)")
            }
            let fdChange = warm.footprint.fdChange(to: end.footprint)
            table.add("fds: end vs after \(warm.jobs) jobs", Self.growth(from: warm.footprint.fds, to: end.footprint.fds, megabytes: false),
                      "-", "-", note: Self.verdict(from: warm.footprint.fds, to: end.footprint.fds) + sameNote
                        + (fdChange.isEmpty ? "; the same kinds" : "; changed: \(fdChange)"))
            table.add("peak resident (VmHWM) at the end", Megabytes.text(end.footprint.peakKiB), "-", "-",
                      note: "the most held while printing; the \(Self.rssTargetKiB / 1024) MB target is section 2's idle figure")
        }
        if let stop = soak.stop {
            table.add("SIGTERM -> exit after the soak", Millis.text(stop.elapsed), "-", "-",
                      note: "exit status \(stop.status)")
        }
        table.add("agent log: warnings and errors", "\(checks.warnings)", "-", "-",
                  note: checks.firstWarnings.map { String($0.prefix(160)) }.joined(separator: " / "))
        if let failure = soak.failure {
            table.add("soak ended early", "yes", "-", "-", note: failure)
        }
    }

    /// `+1.2% (30.1 -> 30.5 MB)` or `+0 (18 -> 18)`.
    static func growth(from before: Int, to after: Int, megabytes: Bool) -> String {
        guard before > 0 else { return "n/a" }
        let percent = Double(after - before) / Double(before) * 100
        if megabytes {
            return String(format: "%+.1f%% (%.1f -> %.1f MB)", percent, Double(before) / 1024, Double(after) / 1024)
        }
        return String(format: "%+d, %+.0f%% (%d -> %d)", after - before, percent, before, after)
    }

    static func verdict(from before: Int, to after: Int) -> String {
        guard before > 0 else { return "n/a" }
        let change = Double(after - before) / Double(before)
        return abs(change) <= growthTolerance ? "within \(Int(growthTolerance * 100))%" : "NOT within \(Int(growthTolerance * 100))%: grows"
    }

    /// The soak's footprint after every `sampleEvery` jobs.
    func soakTable() -> String {
        var table = ColumnTable("jobs completed", "RSS MB", "heap MB", "peak MB", "fds", "threads", "database MB", "elapsed s", "jobs/s")
        for point in soak.points {
            let footprint = point.footprint
            table.rows.append([point.jobs == 0 ? "0 (at READY)" : "\(point.jobs)",
                               String(format: "%.1f", Double(footprint.rssKiB) / 1024),
                               String(format: "%.1f", Double(footprint.anonKiB) / 1024),
                               String(format: "%.1f", Double(footprint.peakKiB) / 1024),
                               "\(footprint.fds)", "\(footprint.threads)",
                               String(format: "%.1f", Double(point.databaseBytes) / 1_048_576),
                               String(format: "%.1f", Millis.value(point.working) / 1000),
                               point.jobsPerSecond.map { String(format: "%.1f", $0) } ?? "-"])
        }
        var lines = table.render()
        lines.append(table.rule)
        lines.append("Read after each batch that completes \(soak.sampleEvery) more jobs, with the queue drained: "
            + "RSS = VmRSS, heap = RssAnon, peak = VmHWM (MB = 2^20 bytes), fds = entries in /proc/PID/fd; database = the SQLite file and its WAL; elapsed = "
            + "time spent feeding and draining (the bench's own reads at each row left out); jobs/s = over the rows' "
            + "interval, batches drained one after another.")
        if let first = soak.points.first, let end = soak.last {
            lines.append("fds at READY: \(first.footprint.kindsText). At the end: \(end.footprint.kindsText).")
        }
        return lines.joined(separator: "\n")
    }
}
