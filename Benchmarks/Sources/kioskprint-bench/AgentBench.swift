import BenchSupport
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

    /// Runs in the lab `LabOptions.enterLab` set up: root, its own loopback.
    static func run(_ options: Options) async -> Never {
        let jobs = options.jobs
        await BenchReport.run("agent") {
            let lab = try await AgentLab.start(kioskprint: options.kioskprint)
            defer { lab.stop() }
            let site = lab.site

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
            return .init(blocks: [table.render(),
                                  "Soak: the agent's footprint every \(soak.sampleEvery) jobs (\(soak.fed) jobs, one process)",
                                  rows.soakTable()],
                         legend: "ms = milliseconds, med = median, p90 = 90th percentile (nearest rank)",
                         passed: soak.failure == nil && soak.checks != nil)
        }
    }

    /// What the `agent` command was asked for.
    struct Options {
        /// Jobs in the soak, at least `minimumJobs`.
        var jobs = defaultJobs
        /// Every kind of job in turn, or one kind alone (to tell which path a growth comes from).
        var feed = AgentSoak.Feed.mixed
        /// Another kioskprint build whose idle footprint is measured beside this one's.
        var compareWith: String?
        /// The agent's binary (`KioskprintBinary`).
        var kioskprint: String
    }

    /// The fewest jobs a soak may have.
    static let minimumJobs = 10
}
