import BenchSupport
import Foundation
import PrintModel
import Setup
import Simulator
import Store

/// `kioskprint-bench cpu`: issue 15's CPU and memory figures for the agent
/// itself. The release `kioskprint run` (as the agent bench starts it, on the
/// same site) is given the render bench's 30-item receipt through its watched
/// receipts folder, 100 one at a time (each let complete before the next is
/// dropped) and then 100 at once; the agent process's CPU time from
/// /proc/PID/stat before and after each batch, per receipt. Beside it, in the
/// same run, the same receipt as a PDF sent with `lp` to a private cupsd with
/// a driverless queue (the print bench's PrivateCups, DriverlessQueue and
/// LpPrintPath) on the same kind of recording printer: cupsd's CPU with its
/// filters' and backend's, per receipt. And the agent's resident memory at
/// READY + 5 s and once idle again after the 200 receipts. Needs root (the lab).
enum CPUBench {
    static let receipts = 100
    static let lpJobs = 12
    static let idleWait = Duration.seconds(5)

    static func run(kioskprint: String) async -> Never {
        await BenchReport.run("cpu") {
            let lab = try await AgentLab.start(kioskprint: kioskprint)
            defer { lab.stop() }
            let scratch = lab.site.folder.appendingPathComponent("scratch")
            // Built before any timing, so a compile failure ends the bench at once.
            let sameWork = try await SameWorkFloor.build(in: scratch)
            progress("1/3 the agent: \(receipts) receipts one at a time, then \(receipts) at once")
            let agent = try await AgentCPU.measure(site: lab.site, receipts: receipts, idleWait: idleWait)
            progress("2/3 the same-work floor in C: \(receipts) receipts in one process")
            let floor = try await sameWork.cpuPerReceipt(uri: lab.receipt.uri, items: RenderCase.longReceiptItems,
                                                         jobs: receipts, folder: scratch)
            progress("3/3 lp through a private cupsd: \(lpJobs) jobs of the same receipt (about a second each)")
            let cups: Result<CupsCPU, BenchError>
            do {
                cups = .success(try await CupsCPU.measure(lab: lab, jobs: lpJobs))
            } catch {
                cups = .failure(BenchError("\(error)"))
            }
            var table = BenchTable()
            CPURows(agent: agent, floor: floor, floorBuild: sameWork.compileCommand, cups: cups).add(to: &table)
            return .init(blocks: [table.render()], legend: "ms = milliseconds, MB = 2^20 bytes")
        }
    }
}

/// The agent's side: CPU per receipt both ways, and its resident memory.
struct AgentCPU: Sendable {
    var receipts: Int
    /// The agent's utime + stime over each batch (DaemonCPU, without children: it runs none).
    var oneAtATime: Duration
    var atOnce: Duration
    /// Wall time of each batch, from the first drop to the drain seen.
    var oneAtATimeElapsed: Duration
    var atOnceElapsed: Duration
    var atStart: AgentFootprint
    var afterWork: AgentFootprint
    var atStartParts: ResidentParts?
    var afterWorkParts: ResidentParts?
    /// One receipt dropped after the idle reading (so after the idle
    /// release), then one more at once: what giving pages back costs the
    /// next job, in CPU and in page faults.
    var afterRelease: (cpu: Duration, minorFaults: Int)
    var nextOne: (cpu: Duration, minorFaults: Int)
    var completed: Int
    var notCompleted: [String]

    /// Files the folder's `done/` as a kiosk's is from its second day on: at
    /// its limit (`AgentSite.doneLimit` receipts finished before, the oldest
    /// first), so that every receipt measured also trims it, as on a box.
    static func fillDone(of folder: String, with data: Data) throws {
        let done = folder + "/done"
        try FileManager.default.createDirectory(atPath: done, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o750])
        let dayAgo = Date().addingTimeInterval(-86_400)
        for number in 1...AgentSite.doneLimit {
            let path = done + String(format: "/earlier-%06d.json", number)
            try data.write(to: URL(fileURLWithPath: path))
            try FileManager.default.setAttributes([.modificationDate: dayAgo.addingTimeInterval(Double(number))],
                                                  ofItemAtPath: path)
        }
    }

    static func measure(site: AgentSite, receipts: Int, idleWait: Duration) async throws -> AgentCPU {
        let sample = try LongReceipt.json()
        let data = Data(sample.utf8)
        func receipt(_ number: Int) throws -> Data { try ReceiptSample.distinct(sample, number: number) }
        let notify = try NotifySocket(receiveTimeout: .seconds(1))
        let log = site.folder.appendingPathComponent("cpu.log").path
        try fillDone(of: site.receipts, with: data)
        let run = try await offloaded { try site.start(notify: notify, log: log) }
        let agent = run.agent
        do {
            let pid = agent.pid
            try await Task.sleep(for: idleWait)
            let atStart = try AgentFootprint.read(pid: pid)
            let atStartParts = ResidentParts.read(pid: pid)
            func cpu() throws -> Duration {
                guard let used = DaemonCPU.used(pid: pid, withChildren: false) else {
                    throw BenchError("the agent exited; see \(log)")
                }
                return used
            }
            var number = 0
            let before = try cpu()
            let firstStarted = ContinuousClock.now
            for _ in 0..<receipts {
                number += 1
                progress("one at a time: receipt \(number) of \(receipts)")
                try site.drop(receipt(number), as: String(format: "cpu-%06d.json", number), into: site.receipts)
                try await AgentSoak.waitForDrain(site: site, presses: 0, agent: agent)
            }
            let oneAtATimeElapsed = ContinuousClock.now - firstStarted
            let middle = try cpu()
            progress("\(receipts) receipts at once")
            let secondStarted = ContinuousClock.now
            for _ in 0..<receipts {
                number += 1
                try site.drop(receipt(number), as: String(format: "cpu-%06d.json", number), into: site.receipts)
            }
            try await AgentSoak.waitForDrain(site: site, presses: 0, agent: agent)
            let atOnceElapsed = ContinuousClock.now - secondStarted
            let after = try cpu()
            progress("the agent idle again for \(idleWait)")
            try await Task.sleep(for: idleWait)
            let afterWork = try AgentFootprint.read(pid: pid)
            let afterWorkParts = ResidentParts.read(pid: pid)
            var lastTimes = try ThreadTimes.read(pid: pid)
            var perJob: [(cpu: Duration, minorFaults: Int)] = []
            for _ in 0..<2 {
                number += 1
                try site.drop(receipt(number), as: String(format: "cpu-%06d.json", number), into: site.receipts)
                try await AgentSoak.waitForDrain(site: site, presses: 0, agent: agent)
                let times = try ThreadTimes.read(pid: pid)
                perJob.append(times.since(lastTimes))
                lastTimes = times
            }
            let jobs = try await site.store.jobs(includeFinished: true)
            let done = jobs.filter { $0.state == .completed }
            _ = try? await offloaded { site.stop(agent) }
            agent.stop()
            return AgentCPU(receipts: receipts, oneAtATime: middle - before, atOnce: after - middle,
                            oneAtATimeElapsed: oneAtATimeElapsed, atOnceElapsed: atOnceElapsed, atStart: atStart,
                            afterWork: afterWork, atStartParts: atStartParts, afterWorkParts: afterWorkParts,
                            afterRelease: perJob[0], nextOne: perJob[1], completed: done.count,
                            notCompleted: jobs.filter { $0.state != .completed }
                                .map { "job \($0.id) \($0.state): \($0.lastError ?? "no error recorded")" })
        } catch {
            agent.stop()
            throw error
        }
    }
}

/// The alternative: the same 30-item receipt as a PDF, `lp` to a private
/// cupsd's driverless queue on a recording printer of the CUPS side's kind,
/// one job at a time, each followed to completed in cupsd.
struct CupsCPU: Sendable {
    var version: String
    var jobs: Int
    var completed: Int
    /// cupsd's utime + stime + cutime + cstime over the timed jobs.
    var cpu: Duration
    var pdfBytes: Int
    var option: String
    var filter: String?

    static func measure(lab: AgentLab, jobs: Int) async throws -> CupsCPU {
        let folder = lab.site.folder.appendingPathComponent("scratch")
        let printer = try await lab.lab.startPrinter(.recording(try CupsReceiptPrinter.preset()))
        // The PDF is drawn for the agent's receipt printer as saved (as the print bench's lp side is).
        let store = try KioskStore(path: folder.appendingPathComponent("cpu-cups.sqlite").path)
        let saved = try await RoleSetup(store: store).add(uri: lab.receipt.uri, role: try Role("receipt"), as: .primary)
        let document = try ReceiptPDF.draw(for: saved.assignment.printer.capabilities, folder: folder,
                                           dataJSON: try LongReceipt.json(), name: "receipt-30.pdf")
        let cups = try await PrivateCups.start(logLevel: "warn")
        defer { cups.stop() }
        let queue = LpPrintPath.queue
        if case .refused(let reason) = try await DriverlessQueue.add(queue, uri: printer.uri, on: cups) {
            throw BenchError("cupsd made no driverless queue for the CUPS side's printer: \(reason)")
        }
        let option = "PageSize=Custom.\(document.widthText)x\(document.lengthText)mm"
        // One untimed job first: cupsd loads the PPD and starts its first filters.
        _ = try await LpPrintPath.printOnce(option, file: document.path, cups: cups, printer: printer, folder: folder)
        guard let cupsd = DaemonCPU.cupsd(of: cups), let before = DaemonCPU.used(pid: cupsd, withChildren: true) else {
            throw BenchError("cupsd's process was not found under its guard shell")
        }
        var completed = 0
        for index in 0..<jobs {
            progress("lp job \(index + 1) of \(jobs)")
            let attempt = try await LpPrintPath.printOnce(option, file: document.path, cups: cups, printer: printer,
                                                          folder: folder)
            if attempt.state == .completed { completed += 1 }
        }
        guard let after = DaemonCPU.used(pid: cupsd, withChildren: true) else {
            throw BenchError("cupsd exited during the jobs")
        }
        return CupsCPU(version: try await LpPrintPath.packageVersion("cups", folder: folder), jobs: jobs,
                       completed: completed, cpu: after - before, pdfBytes: document.bytes, option: option,
                       filter: DriverlessQueue.filter(queue, on: cups))
    }
}

/// The cpu bench's table.
struct CPURows {
    let agent: AgentCPU
    /// The same-work floor's CPU per receipt, and how it was built.
    let floor: Duration
    let floorBuild: String
    let cups: Result<CupsCPU, BenchError>

    /// Issue 15's targets.
    static let cpuTarget = Duration.milliseconds(6)
    static let cupsRatioTarget = 15.0
    static let startTargetKiB = 25 * 1024
    static let afterWorkTargetKiB = 28 * 1024

    func add(to table: inout BenchTable) {
        let n = agent.receipts
        table.section("1. CPU per 30-item receipt dropped into a watched folder (ms of CPU time per receipt)")
        let agentNote = table.footnote("The release `kioskprint run` on the agent bench's site (AgentLab: 2 watched "
            + "folders, 1 button, 1 light checking the receipt printer every 2 s, 80 mm and 4x6 recording "
            + "ippeveprinters on loopback), \(Millis.text(CPUBench.idleWait)) ms after READY=1. Each receipt is the "
            + "render bench's \"receipt, \(RenderCase.longReceiptItems) items\" data (the built-in receipt's "
            + "sample items repeated), each receipt made its own: its id, and every item's name numbered and its price "
            + "varied, so no item's text repeats between receipts (the agent keeps laid-out paragraphs across jobs; "
            + "the header, quantities, totals' labels and footer repeat, as on a till), written as .NAME.tmp and renamed into receipts/ (template = \"receipt\"), whose done/ "
            + "held its limit before the agent started (\(AgentSite.doneLimit) receipts finished a day before: a kiosk's "
            + "folder from its second day on), so each receipt also trims done/. One "
            + "at a time: each dropped once the one before had drained (file gone from the folder and processing/, "
            + "no unfinished job in the store, polled every \(Millis.text(AgentSoak.pollInterval)) ms), \(n) "
            + "receipts in \(Millis.text(agent.oneAtATimeElapsed)) ms; at once: \(n) dropped together, then "
            + "drained, in \(Millis.text(agent.atOnceElapsed)) ms. CPU = the agent process's utime + stime "
            + "(/proc/PID/stat, all its threads; 10 ms ticks) read before and after each batch, divided by the "
            + "receipts: intake, drawing, the store, IPP and the follow, and whatever else the agent did meanwhile "
            + "(its light's check, its timers). \(agent.completed) of \(2 * n + 2) jobs completed (section 2's two included)"
            + (agent.notCompleted.first.map { "; first not completed: \($0)" } ?? "") + ".")
        let one = agent.oneAtATime / n, many = agent.atOnce / n
        let cupsFigures: CupsCPU? = if case .success(let c) = cups { c } else { nil }
        let cupsPerJob = cupsFigures.map { $0.cpu / max($0.jobs, 1) }
        func verdict(_ ours: Duration) -> String {
            var text = "target <= \(Millis.text(Self.cpuTarget)) ms: " + (ours <= Self.cpuTarget ? "met" : "missed")
            if let theirs = cupsPerJob, Millis.value(ours) > 0 {
                let ratio = Millis.value(theirs) / Millis.value(ours)
                text += String(format: "; cupsd / agent x%.1f, target >= %.0fx: ", ratio, Self.cupsRatioTarget)
                    + (ratio >= Self.cupsRatioTarget ? "met" : "missed")
            }
            return text
        }
        let cupsLabel: String, cupsFigure: String, cupsNote: String
        switch cups {
        case .success(let c):
            cupsLabel = "lp -o \(c.option), cupsd + filters + backend"
            cupsFigure = DaemonCPU.text(cupsPerJob) + " (\(c.jobs) jobs)"
            cupsNote = table.footnote("CUPS \(c.version): the print bench's private cupsd (PrivateCups, LogLevel warn) "
                + "with a driverless queue (lpadmin -m everywhere, PPD filter \(c.filter ?? "unknown")) to an 80 mm "
                + "recording ippeveprinter of its own (CupsReceiptPrinter), given the same 30-item receipt as a PDF "
                + "(\(c.pdfBytes) bytes, drawn once before, for the agent's receipt printer as saved) with lp, one "
                + "job at a time, each followed to completed in cupsd (Get-Job-Attributes every 10 ms); one untimed "
                + "job first; \(c.completed) of \(c.jobs) completed. CPU = cupsd's utime + stime + cutime + cstime "
                + "(/proc/PID/stat) before the first timed job and after the last, divided by the jobs: cupsd, and "
                + "the filters and IPP backend it ran and reaped as its children; cupsd answering lp and the "
                + "bench's polls is in it, lp itself is not.")
        case .failure(let error):
            cupsLabel = "lp through a private cupsd"
            cupsFigure = "not measured"
            cupsNote = "cupsd could not run here: \(error)"
        }
        table.add("\(n) one at a time, each completed first", DaemonCPU.text(one) + " (\(DaemonCPU.text(agent.oneAtATime)) in all)",
                  cupsLabel, cupsFigure, note: verdict(one) + " " + agentNote + " " + cupsNote)
        table.add("\(n) at once", DaemonCPU.text(many) + " (\(DaemonCPU.text(agent.atOnce)) in all)",
                  "", "", note: verdict(many))
        let floorNote = table.footnote("The floor: Benchmarks/Floor/print-wait-floor.c, compiled by the bench in this "
            + "run (\(floorBuild)), run once with -n \(n) -i \(RenderCase.longReceiptItems) against the agent's "
            + "receipt printer after the agent's batches: one process that keeps what an agent keeps (its Pango font "
            + "map and context, the logo's ink, the open database, one HTTP connection) and for each receipt lays "
            + "out the built-in receipt with its sample items repeated to \(RenderCase.longReceiptItems) (texts, "
            + "sizes and columns written out in C: no template, no JSON, no cache), draws it with the logo and the "
            + "QR code, thresholds it and encodes PWG raster (black_1), commits the job queued and sending (synced), "
            + "sends Print-Job, asks Get-Job-Attributes at once and every 10 ms until completed, and commits the end. "
            + "CPU = its getrusage over the \(n) receipts after one untimed, divided by them. It does less than the "
            + "agent: no folder, no file moves, no template or data check, no claim, no readiness check.")
        let floorRatio = String(format: "agent / floor x%.2f one at a time, x%.2f at once; the target (%@ ms) is x%.2f the floor ",
                                Millis.value(one) / max(Millis.value(floor), 0.001),
                                Millis.value(many) / max(Millis.value(floor), 0.001), Millis.text(Self.cpuTarget),
                                Millis.value(Self.cpuTarget) / max(Millis.value(floor), 0.001))
        table.add("the floor: the same work in C", DaemonCPU.text(floor) + " per receipt", "", "",
                  note: floorRatio + floorNote)

        table.section("2. The agent's resident memory (VmRSS), idle")
        let memoryNote = table.footnote("VmRSS and RssAnon from /proc/PID/status of the agent process, as the agent "
            + "bench's AgentFootprint reads them; heap = RssAnon. 'Idle again' is read \(Millis.text(CPUBench.idleWait)) "
            + "ms after section 1's last batch drained (once a role's queue has stayed dry for 2 s, and once after "
            + "start, the agent gives back SQLite's caches, the heap's free pages with malloc_trim and its clean "
            + "file pages with MADV_PAGEOUT, then unmaps the read-only pages of its binary and libraries that "
            + "other processes map too with MADV_DONTNEED). Where it is (/proc/PID/smaps; 'shared': pages other "
            + "processes map too, such as the lab's printers' libraries; PSS from smaps_rollup counts a page N "
            + "processes map as 1/N): at READY + "
            + "\(Int(Millis.value(CPUBench.idleWait) / 1000)) s \(agent.atStartParts?.text ?? "not read"); idle again "
            + "\(agent.afterWorkParts?.text ?? "not read").")
        func memory(_ footprint: AgentFootprint) -> String {
            "\(Megabytes.text(footprint.rssKiB)) (heap \(Megabytes.text(footprint.anonKiB)))"
        }
        table.add("at READY + \(Int(Millis.value(CPUBench.idleWait) / 1000)) s", memory(agent.atStart), "-", "-",
                  note: "target < \(Self.startTargetKiB / 1024) MB: "
                    + (agent.atStart.rssKiB < Self.startTargetKiB ? "met " : "missed ") + memoryNote)
        table.add("idle again after the \(2 * n) receipts", memory(agent.afterWork), "-", "-",
                  note: "target < \(Self.afterWorkTargetKiB / 1024) MB: "
                    + (agent.afterWork.rssKiB < Self.afterWorkTargetKiB ? "met" : "missed")
                    + "; peak while working (VmHWM) \(Megabytes.text(agent.afterWork.peakKiB))")
        let faultsNote = table.footnote("Then one more receipt, dropped once the idle reading was taken (the agent "
            + "had given its pages back), and one more once it had drained: each one's CPU from "
            + "/proc/PID/task/*/schedstat (nanoseconds, per thread, summed) and the process's minor page faults "
            + "(/proc/PID/stat): what the idle release costs the next job, as its pages come back.")
        func job(_ figures: (cpu: Duration, minorFaults: Int)) -> String {
            "\(Millis.text(figures.cpu)) ms, \(figures.minorFaults) faults"
        }
        table.add("the next receipt, after the release", job(agent.afterRelease), "the receipt after it",
                  job(agent.nextOne), note: faultsNote)
    }
}
