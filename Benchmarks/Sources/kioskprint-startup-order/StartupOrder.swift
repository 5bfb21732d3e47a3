import ArgumentParser
import BenchSupport
import Foundation
import Simulator
import Templates

/// `kioskprint-startup-order [--out FILE]`: the link order that keeps the
/// agent's working code together, written for `scripts/build-release.sh`.
///
/// Why: the kernel maps a program's code 64 KB around each page it touches,
/// so the few thousand functions an idle agent runs, scattered through 20 MB
/// of statically linked code, kept most of it resident. Listed first in the
/// link (lld's `--symbol-ordering-file`), they share a few hundred pages.
///
/// How: the agent bench's site, with the release `kioskprint` (a copy
/// without DWARF, which valgrind 3.19 cannot read) run twice under
/// valgrind's callgrind: once started and left idle, once given one job of
/// each kind (a receipt file, a label envelope, a button press). The file
/// lists the functions the first run ran once ready (its timers, its idle
/// looks), the busiest first, then those the jobs added, then those only the
/// start ran. Needs root (the lab) and valgrind.
@main
struct StartupOrder: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "kioskprint-startup-order",
        abstract: "Profile the release agent under callgrind and write its link order (scripts/kioskprint.order).",
        discussion: """
            Runs `kioskprint run` against a PrinterLab twice under valgrind's callgrind: once started and \
            left idle, once given a receipt file, a shipping-label envelope and a button press. Lists the \
            functions of kioskprint that ran once the agent was ready and idle, the busiest first, then \
            those the jobs added, then those only the start ran: the order scripts/build-release.sh links \
            them in (lld's --symbol-ordering-file), so that the code an idle agent keeps touching, once it \
            has given back what its start touched, shares a few hundred pages.

            Profile the binary that build-release.sh linked, then build again:
              scripts/build-release.sh --with-bench
              sudo Benchmarks/.build/release/kioskprint-startup-order \\
                  --out scripts/kioskprint.order
              scripts/build-release.sh --product kioskprint

            Needs root (the lab's avahi-daemon) and valgrind (apt-get install valgrind), and takes a few \
            minutes: valgrind runs the agent some fifty times slower.
            """)

    /// How long the first run sits idle: the light checks its printer every 2 s.
    static let idleWait = Duration.seconds(6)
    /// valgrind runs the agent some fifty times slower.
    static let readyLimit = Duration.seconds(180)
    static let drainLimit = Duration.seconds(300)

    @Option(help: ArgumentHelp("Write the order to this file (default: standard output).", valueName: "file"),
            completion: .file())
    var out: String?
    @OptionGroup var kioskprint: KioskprintOption
    @OptionGroup var lab: LabOptions

    func run() async throws {
        try lab.enterLab("kioskprint-startup-order", needsRootFor: "its lab runs a private avahi-daemon")
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        guard path.split(separator: ":").contains(where: { FileManager.default.isExecutableFile(atPath: "\($0)/valgrind") }) else {
            throw BenchError("valgrind is not installed: apt-get install valgrind, then run this again.")
        }
        let text = try await Self.profile(kioskprint: try kioskprint.binary())
        if let out {
            do { try Data(text.utf8).write(to: URL(fileURLWithPath: out)) } catch {
                throw BenchError("cannot write \(out): \(error.localizedDescription)")
            }
        } else {
            print(text, terminator: "")
        }
    }

    private static func profile(kioskprint: String) async throws -> String {
        let lab = try await AgentLab.start(kioskprint: kioskprint)
        defer { lab.stop() }
        let site = lab.site
        // The copy keeps its symbol table, which is all the order needs.
        let copy = site.folder.appendingPathComponent("kioskprint").path
        _ = try await offloaded {
            try MeasuredProcess.mustSucceed("objcopy", ["--strip-debug", site.kioskprint, copy], folder: site.folder)
        }

        progress("1/2 the agent started and idle, under callgrind")
        let (start, idle) = try await profiledRun(site: site, binary: copy, name: "idle") { _ in
            try await Task.sleep(for: idleWait)
        }
        progress("2/2 the agent given a receipt, a label and a button press, under callgrind")
        let (_, jobs) = try await profiledRun(site: site, binary: copy, name: "jobs") { agent in
            try await feedOneOfEach(site: site, agent: agent)
        }

        // What runs while the agent is idle first, then what a job adds, then what only the
        // start ran: once the idle agent has given back the pages it touched (CleanPages),
        // the code its timers keep running shares the fewest pages, and so does a job's.
        let whileIdle = idle.functions(inObjectEndingWith: "/kioskprint")
        var seen = Set(whileIdle)
        let forJobs = jobs.functions(inObjectEndingWith: "/kioskprint").filter { seen.insert($0).inserted }
        let atStart = start.functions(inObjectEndingWith: "/kioskprint").filter { seen.insert($0).inserted }
        guard whileIdle.count > 100 else {
            throw BenchError("callgrind saw only \(whileIdle.count) functions of the idle kioskprint: is the copy \(copy) the agent?")
        }
        progress("\(whileIdle.count) functions while idle, \(forJobs.count) more for the jobs, \(atStart.count) only at start")
        return (whileIdle + forJobs + atStart).map { $0 + "\n" }.joined()
    }

    /// Starts the agent under callgrind, runs `work` while it is ready, stops it and reads the
    /// profile: up to READY=1 (callgrind_control dumps it then), and from there to the end.
    private static func profiledRun(site: AgentSite, binary: String, name: String, work: (Spawned) async throws -> Void)
        async throws -> (start: CallgrindProfile, afterReady: CallgrindProfile) {
        let notify = try NotifySocket(receiveTimeout: .seconds(1))
        let log = site.folder.appendingPathComponent("order-\(name).log").path
        let profilePath = site.folder.appendingPathComponent("callgrind-\(name).out").path
        let wrapper = ["valgrind", "--tool=callgrind", "--demangle=no", "--callgrind-out-file=\(profilePath)"]
        let run = try await offloaded {
            try site.start(notify: notify, log: log, wrapper: wrapper, binary: binary, readyWithin: readyLimit)
        }
        do {
            // The dump goes to PROFILE.1 and zeroes the counters: what follows is the ready agent's.
            _ = try await offloaded {
                try MeasuredProcess.mustSucceed("callgrind_control", ["--dump", "\(run.agent.pid)"], folder: site.folder)
            }
            try await work(run.agent)
        } catch {
            run.agent.stop()
            throw error
        }
        let stopped = try await offloaded { site.stop(run.agent, limit: .seconds(120)) }
        guard stopped.status == 0 else {
            throw BenchError("the agent under callgrind exited with status \(stopped.status); see \(log)")
        }
        return (try CallgrindProfile.read(profilePath + ".1"), try CallgrindProfile.read(profilePath))
    }

    /// One receipt file, one shipping-label envelope and one button press, then the queue drained.
    private static func feedOneOfEach(site: AgentSite, agent: Spawned) async throws {
        guard let labelSample = BuiltInTemplates.all.first(where: { $0.name == "shipping-label" })?.sampleData else {
            throw BenchError("the built-in shipping-label template has no sample data")
        }
        try site.drop(Data(try ReceiptSample.json().utf8), as: "order-receipt.json", into: site.receipts)
        let envelope = #"{"template": "shipping-label", "role": "label", "data": "# + labelSample + "}"
        try site.drop(Data(envelope.utf8), as: "order-label.json", into: site.labels)
        try await site.gpio.press(line: AgentSite.buttonLine, heldFor: .milliseconds(100))
        try await pollUntil("the three jobs to be printed", within: drainLimit, every: .milliseconds(200)) {
            guard agent.isRunning else { throw BenchError("the agent exited while printing") }
            let files = [site.receipts, site.labels].allSatisfy {
                AgentSite.entries(in: $0, excludingSubfolders: true).isEmpty && AgentSite.inProcessing($0).isEmpty
            }
            let jobs = try await site.store.jobs(includeFinished: true)
            return files && jobs.count == 3 && jobs.allSatisfy { $0.state == .completed }
        }
    }
}
