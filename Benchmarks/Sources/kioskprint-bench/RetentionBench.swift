import BenchSupport
import Foundation

/// `kioskprint-bench retention [--jobs N]`: whether the database and the
/// spool folder stay flat over a soak of N jobs (default 100,000) with the
/// agent's purge, beside the same soak without one (KioskPrint before
/// retention kept every finished job and file). Store level, no printers
/// and no root: the jobs go through the store as the spooler takes them.
enum RetentionBench {
    static let defaultJobs = 100_000
    /// The agent's cadence, scaled to the soak: a purge every 1,000 jobs
    /// keeping the newest 5,000 (the defaults are hourly and 20,000).
    static let purgeEvery = 1_000
    static let keepJobs = 5_000
    static let keepFor = Duration.seconds(30 * 86_400)

    /// The fewest jobs a soak may have: a tenth of them must span a purge.
    static let minimumJobs = 1_000

    static func run(jobs: Int) async -> Never {
        let total = jobs
        let samples = [jobs / 10, jobs / 2, jobs]
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("kioskprint-retention-\(UUID().uuidString)").path
        let facts = MachineFacts.current()
        var runs: [RetentionSoak] = []
        do {
            // The two runs side by side, each on a store of its own: one core each, and each one's
            // waits for fsync overlap the other's work.
            runs = try await withThrowingTaskGroup(of: RetentionSoak.self) { group in
                for purging in [true, false] {
                    group.addTask {
                        var soak = RetentionSoak(jobs: total, samples: samples, purging: purging, keepJobs: keepJobs,
                                                 keepFor: keepFor, purgeEvery: purgeEvery)
                        try await soak.run(in: folder + (purging ? "/purging" : "/kept"))
                        return soak
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }.sorted { $0.purging && !$1.purging }
            }
        } catch {
            try? FileManager.default.removeItem(atPath: folder)
            FileHandle.standardError.write(Data("kioskprint-bench retention: \(error)\n".utf8))
            exit(1)
        }
        // exit() skips a defer: the stores go here, once measured.
        try? FileManager.default.removeItem(atPath: folder)
        print(facts.summary + "  load \(MachineFacts.loadAverage()) (1 min, at the end)")
        print("")
        print(report(runs, jobs: jobs).joined(separator: "\n"))
        exit(0)
    }

    static func report(_ runs: [RetentionSoak], jobs: Int) -> [String] {
        var table = ColumnTable("jobs", "run", "database MB", "WAL MB", "db+WAL MB", "spool MB", "spool files", "job rows")
        func megabytes(_ bytes: Int64) -> String { String(format: "%.1f", Double(bytes) / 1_048_576) }
        for index in runs[0].points.indices {
            for soak in runs {
                let point = soak.points[index]
                table.rows.append([soak.purging ? (point.jobs == 0 ? "start" : "\(point.jobs)") : "", soak.purging ? "purge" : "no purge (today)",
                                   megabytes(point.databaseBytes), megabytes(point.walBytes),
                                   megabytes(point.databaseBytes + point.walBytes), megabytes(point.spoolBytes),
                                   "\(point.spoolFiles)", "\(point.rows)"])
            }
        }
        var lines = ["Retention soak: \(jobs) jobs through the store as the spooler takes them (enqueue, claim, markSending, "
            + "markSent, finish as completed), one role; every \(RetentionSoak.documentEvery)th a \(RetentionSoak.documentBytes / 1024) KB PDF "
            + "copied into the spool folder by JobIntake, the rest the receipt template with its sample data.", ""]
        lines += table.render()
        lines.append(table.rule)
        lines.append("purge = a purge every \(purgeEvery) jobs keeping the newest \(keepJobs) finished (keep-for \(keepFor.components.seconds / 86_400)d, "
            + "shop clock \(Int(RetentionSoak.jobSpacing)) s a job), the agent's cadence scaled down; no purge = every job and file kept, "
            + "as before retention. Sizes read as they are at that point, no checkpoint forced (MB = 2^20 bytes).")
        for soak in runs {
            var line = "\(soak.purging ? "purge" : "no purge"): \(soak.jobs) jobs in \(String(format: "%.1f", Millis.value(soak.elapsed) / 1000)) s"
                + String(format: " (%.0f jobs/s, 5 synced commits a job)", Double(soak.jobs) / (Millis.value(soak.elapsed) / 1000))
            if soak.purging {
                line += "; \(soak.purgeTimes.count) purges removed \(soak.purgedJobs) jobs, each took (ms) \(Sample(soak.purgeTimes).spread())"
            }
            lines.append(line + ".")
        }
        return lines
    }
}
