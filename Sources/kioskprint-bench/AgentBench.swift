import Foundation
import Simulator

/// `kioskprint-bench agent [--jobs N]`: the agent's own figures. The release
/// `kioskprint run` as a child process, against recording printers on
/// loopback and the GPIO stand-in: how long it takes to say READY=1 to
/// systemd (beside a private cupsd's start), what it holds when idle, and
/// whether its memory and descriptors stay flat over N jobs (default
/// 10,000) through its watched folders and its button.
///
/// Needs root, like `print`: the printers come from a PrinterLab, whose
/// private avahi-daemon only root may start (the agent itself needs no
/// Avahi: its printers are saved by URI). Runs in a network namespace of its
/// own unless `--shared-loopback`.
enum AgentBench {
    static let defaultJobs = 10_000
    /// Starts timed in section 1.
    static let starts = 20
    /// How long the agent (and cupsd) sit idle before their footprint is read.
    static let idleWait = Duration.seconds(5)

    static func run(_ arguments: [String]) async -> Never {
        let options: Options
        switch Options.parse(arguments) {
        case .success(let parsed): options = parsed
        case .failure(let error):
            FileHandle.standardError.write(Data(("kioskprint-bench agent: \(error)\nusage: kioskprint-bench agent "
                + "[--jobs N] [--only receipt|label|ticket] [--compare-with PATH] [--shared-loopback]\n").utf8))
            exit(2)
        }
        let jobs = options.jobs
        guard geteuid() == 0 else {
            FileHandle.standardError.write(Data(("kioskprint-bench agent needs root: its printers come from a "
                + "PrinterLab, which runs a private avahi-daemon. Run it with sudo.\n").utf8))
            exit(1)
        }
        PrivateLoopback.enterUnlessShared()
        // A closed standard output (`| head`) would otherwise end the process by
        // SIGPIPE, which skips the lab's clean-up and leaves its daemons running.
        signal(SIGPIPE, SIG_IGN)
        let facts = MachineFacts.current()
        let load = MachineFacts.loadAverage()
        var complete = false
        do {
            let lab = try await AgentLab.start()
            defer { lab.stop() }
            let site = lab.site
            let began = ContinuousClock.now

            progress("1/3 \(starts) agent starts to READY=1")
            let startup = try await AgentStartup.measure(site: site, starts: starts, idleWait: idleWait)
            var compared: ComparedBuild?
            if let other = options.compareWith {
                progress("1/3 the build to compare with, started once and idle for \(idleWait)")
                compared = try await ComparedBuild.measure(site: site, binary: other, idleWait: idleWait)
            }
            progress("2/3 \(starts) private cupsd starts")
            let cups = await CupsStartup.measure(starts: starts, idleWait: idleWait,
                                                 folder: site.folder.appendingPathComponent("scratch"))
            progress("3/3 soak: \(jobs) jobs")
            let soak = try await AgentSoak.run(site: site, jobs: jobs, feed: options.feed,
                                             printers: [lab.receipt, lab.label])

            let rows = AgentRows(startup: startup, compared: compared, cups: cups, soak: soak, starts: starts)
            var table = BenchTable()
            rows.add(to: &table)
            print(facts.text + "  load \(load) (1 min, at start)")
            print("")
            print(table.render())
            print("")
            print("Soak: the agent's footprint every \(soak.sampleEvery) jobs (\(soak.fed) jobs, one process)")
            print("")
            print(rows.soakTable())
            print("")
            print("Measured in \(Millis.text(ContinuousClock.now - began)) ms of lab time, load "
                + "\(MachineFacts.loadAverage()) at the end; ms = milliseconds, med = median, "
                + "p90 = 90th percentile (nearest rank).")
            // Exit after the do block, so that the lab is stopped by its defer first.
            complete = soak.failure == nil && soak.checks != nil
        } catch {
            FileHandle.standardError.write(Data("kioskprint-bench agent: \(error)\n".utf8))
            exit(1)
        }
        exit(complete ? 0 : 1)
    }

    /// The command line after `agent`.
    struct Options {
        var jobs = defaultJobs
        var feed = AgentSoak.Feed.mixed
        /// Another kioskprint build whose idle footprint is measured beside this one's.
        var compareWith: String?

        /// `--jobs N` (at least 10), `--only receipt|label|ticket` (the soak
        /// feeds that kind alone, to tell which path a growth comes from);
        /// `--compare-with PATH` (another build's idle footprint beside this one's);
        /// `--shared-loopback` is PrivateLoopback's. `--jobs=N` works too.
        static func parse(_ arguments: [String]) -> Result<Options, BenchError> {
            var options = Options()
            var rest = arguments[...]
            while let argument = rest.popFirst() {
                if argument == PrivateLoopback.sharedFlag { continue }
                var parts = argument.split(separator: "=", maxSplits: 1).map(String.init)
                if parts.count == 1, let value = rest.popFirst() { parts.append(value) }
                switch parts.first {
                case "--jobs":
                    guard parts.count == 2, let count = Int(parts[1]), count >= 10 else {
                        return .failure(BenchError("--jobs takes a whole number of jobs, at least 10"))
                    }
                    options.jobs = count
                case "--compare-with":
                    guard parts.count == 2, FileManager.default.isExecutableFile(atPath: parts[1]) else {
                        return .failure(BenchError("--compare-with takes the path of another kioskprint build"))
                    }
                    options.compareWith = parts[1]
                case "--only":
                    guard parts.count == 2, let feed = AgentSoak.Feed(rawValue: parts[1]), feed != .mixed else {
                        return .failure(BenchError("--only takes receipt, label or ticket"))
                    }
                    options.feed = feed
                default:
                    return .failure(BenchError("unknown argument \(argument)"))
                }
            }
            return .success(options)
        }
    }
}
