import RawRolePrinters
import Spooler

/// The version this build of KioskPrint calls itself: `kioskprint --version`
/// and `kioskprint_build_info{version}`. Raised with each release.
public enum KioskPrintVersion {
    public static let current = "0.12.0"
}

/// Every metric the agent exports: its name, Prometheus type, help text and,
/// for histograms, buckets. One table, so that the names in the README, the
/// alert rules and the dashboard have a single source, and every metric has
/// the HELP line `promtool check metrics` asks for.
enum MetricCatalog {
    struct Entry {
        let help: String
        /// Histogram bucket bounds in seconds; nil for counters and gauges.
        let buckets: [Duration]?
    }

    static let jobsFinished = "kioskprint_jobs_finished_total"
    static let jobLatency = "kioskprint_job_latency_seconds"
    static let renderDuration = SpoolerMetrics.renderDuration
    static let queueDepth = "kioskprint_queue_depth"
    static let printerUp = "kioskprint_printer_up"
    static let printerState = "kioskprint_printer_state"
    static let paperLow = "kioskprint_paper_low"
    static let failovers = "kioskprint_failovers_total"
    static let refusedFiles = "kioskprint_refused_files_total"
    static let buildInfo = "kioskprint_build_info"
    static let rawJobs = RawJobCount.metric

    /// From a receipt printed at once (tens of ms) to a job that waited for
    /// paper or a failover (a minute): 10 ms to 60 s.
    static let latencyBuckets = seconds([0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60])
    /// Drawing one job: a few ms for a receipt to seconds for a large PDF.
    static let renderBuckets = seconds([0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10])

    private static func seconds(_ bounds: [Double]) -> [Duration] { bounds.map { Duration.seconds($0) } }

    static let entries: [String: Entry] = [
        jobsFinished: Entry(help: "Jobs that reached their end, by role and final state (completed, failed, canceled, aborted, held).",
                            buckets: nil),
        jobLatency: Entry(help: "Seconds from a job's acceptance to its completion, for completed jobs, by role.",
                          buckets: latencyBuckets),
        renderDuration: Entry(help: "Seconds the spooler spent drawing one job for its printer, by role.", buckets: renderBuckets),
        queueDepth: Entry(help: "Unfinished jobs (queued, sending, sent or waiting) per role, read at scrape time.", buckets: nil),
        printerUp: Entry(help: "1 if the role's printer can print (no trouble seen while printing, none saved at its last check), else 0.",
                         buckets: nil),
        printerState: Entry(help: "The printer's state, one-hot: 1 for its current state (idle, processing, stopped, unreachable).",
                            buckets: nil),
        paperLow: Entry(help: "1 if the printer warns that its paper is near its end (media-low, media-near-end), else 0.",
                        buckets: nil),
        failovers: Entry(help: "Jobs sent to a backup printer because the primary stayed unavailable, by role.", buckets: nil),
        refusedFiles: Entry(help: "Files a watched folder refused and moved to failed/, by folder.", buckets: nil),
        rawJobs: Entry(help: "Jobs tills sent a raw role printer (port 9100), by role and outcome: queued, or refused (kept in refused/, or the connection closed unread).",
                       buckets: nil),
        buildInfo: Entry(help: "Always 1; the version label says which build of KioskPrint runs.", buckets: nil),
    ]
}
