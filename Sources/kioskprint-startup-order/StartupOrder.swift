import ArgumentParser
import BenchSupport
import Foundation
import Simulator
import Templates

/// `kioskprint-startup-order [--out FILE]`: the link order that keeps the
/// agent's working code together, made by `scripts/build-release.sh` for
/// the sources it builds.
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
/// lists first what the idle agent keeps running once it has given its
/// pages back (`CleanPages`): its timers and looks, the busiest first. Each
/// of those functions faults its 64 KB back in at the next tick, so they
/// must share as few windows as they can; listed among everything that runs
/// once after READY (the first looks, the release itself), they spread over
/// some 7 MB. Then the rest of what ran once ready, then what the jobs
/// added, then what only the start ran. Needs root (the lab) and valgrind.
@main
struct StartupOrder: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "kioskprint-startup-order",
        abstract: "Profile the release agent under callgrind and write its link order (for scripts/build-release.sh).",
        discussion: """
            Runs `kioskprint run` against a PrinterLab twice under valgrind's callgrind: once started and \
            left idle, once given a receipt file, a shipping-label envelope and a button press. Lists the \
            functions of kioskprint that ran once the agent was ready and idle, the busiest first, then \
            those the jobs added, then those only the start ran: the order scripts/build-release.sh links \
            them in (lld's --symbol-ordering-file), so that the code an idle agent keeps touching, once it \
            has given back what its start touched, shares a few hundred pages.

            scripts/build-release.sh runs it whenever its order (.build/link-order/kioskprint.order) was \
            not made from the sources it builds: it links kioskprint without an order, runs this on it, and \
            links again with the order written.

            Needs root (the lab's avahi-daemon) and valgrind (apt-get install valgrind), and takes about a \
            minute (51 s on a 2-core machine): valgrind runs the agent some fifty times slower.
            """)

    /// The idle run is cut into one profile a second for this long: the idle
    /// release comes once the queues have stayed dry for 2 s (several seconds
    /// under valgrind), and after it every timer must run at least twice: the
    /// light checks its printer every 2 s, the folders and roles look every 5 s.
    static let idleSlices = 24
    /// The idle release's function, whose slice ends the one-off work after READY.
    static let releaseFunction = "$s6Memory10CleanPagesO7release"
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
        let idleRun = try await profiledRun(site: site, binary: copy, name: "idle", slices: idleSlices) { _ in }
        progress("2/2 the agent given a receipt, a label and a button press, under callgrind")
        let jobsRun = try await profiledRun(site: site, binary: copy, name: "jobs", slices: 0) { agent in
            try await feedOneOfEach(site: site, agent: agent)
        }

        let binary = "/kioskprint"
        let steady = try steadyIdle(idleRun.slices).functions(inObjectEndingWith: binary)
        var seen = Set(steady)
        let whileIdle = idleRun.slices.reduce(CallgrindProfile(), +).functions(inObjectEndingWith: binary)
            .filter { seen.insert($0).inserted }
        let forJobs = jobsRun.slices.reduce(CallgrindProfile(), +).functions(inObjectEndingWith: binary)
            .filter { seen.insert($0).inserted }
        let atStart = idleRun.start.functions(inObjectEndingWith: binary).filter { seen.insert($0).inserted }
        guard steady.count > 20 else {
            throw BenchError("callgrind saw only \(steady.count) functions of the idle kioskprint after its release: "
                + "is the copy \(copy) the agent?")
        }
        // Always said (not only on a terminal): the counts show whether the slices caught the idle agent.
        FileHandle.standardError.write(Data(("\(steady.count) functions idle after the release, \(whileIdle.count) "
            + "more once ready, \(forJobs.count) more for the jobs, \(atStart.count) only at start\n").utf8))
        return (steady + whileIdle + forJobs + atStart).map { $0 + "\n" }.joined()
    }

    /// The slices after the one in which the idle release ran, but the last
    /// (which holds the stop): what the idle agent keeps running.
    static func steadyIdle(_ slices: [CallgrindProfile]) throws -> CallgrindProfile {
        guard let release = slices.lastIndex(where: { $0.ran(functionPrefixed: releaseFunction) }) else {
            throw BenchError("the idle agent did not give its pages back within \(idleSlices) s under callgrind "
                + "(no \(releaseFunction) in its profile): raise idleSlices")
        }
        let after = slices[(release + 1)...].dropLast()
        guard !after.isEmpty else {
            throw BenchError("the idle agent gave its pages back only in the last of its \(idleSlices) s under "
                + "callgrind: raise idleSlices")
        }
        return after.reduce(CallgrindProfile(), +)
    }

    /// Starts the agent under callgrind, runs `work` while it is ready, then
    /// lets it run `slices` more seconds, one profile each, stops it and reads
    /// the profiles: up to READY=1 (callgrind_control dumps it then), each
    /// slice after it in order, and the last from there to the end.
    private static func profiledRun(site: AgentSite, binary: String, name: String, slices: Int,
                                    work: (Spawned) async throws -> Void)
        async throws -> (start: CallgrindProfile, slices: [CallgrindProfile]) {
        let notify = try NotifySocket(receiveTimeout: .seconds(1))
        let log = site.folder.appendingPathComponent("order-\(name).log").path
        let profilePath = site.folder.appendingPathComponent("callgrind-\(name).out").path
        let wrapper = ["valgrind", "--tool=callgrind", "--demangle=no", "--callgrind-out-file=\(profilePath)"]
        let run = try await offloaded {
            try site.start(notify: notify, log: log, wrapper: wrapper, binary: binary, readyWithin: readyLimit)
        }
        // Each dump goes to PROFILE.N and zeroes the counters: the first holds the start.
        @Sendable func dump() async throws {
            _ = try await offloaded {
                try MeasuredProcess.mustSucceed("callgrind_control", ["--dump", "\(run.agent.pid)"], folder: site.folder)
            }
        }
        do {
            try await dump()
            try await work(run.agent)
            for _ in 0..<slices {
                try await Task.sleep(for: .seconds(1))
                try await dump()
            }
        } catch {
            run.agent.stop()
            throw error
        }
        let stopped = try await offloaded { site.stop(run.agent, limit: .seconds(120)) }
        guard stopped.status == 0 else {
            throw BenchError("the agent under callgrind exited with status \(stopped.status); see \(log)")
        }
        let after = try (0..<slices).map { try CallgrindProfile.read(profilePath + ".\($0 + 2)") }
        return (try CallgrindProfile.read(profilePath + ".1"), after + [try CallgrindProfile.read(profilePath)])
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
