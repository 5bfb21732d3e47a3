import Foundation
import Metrics
public import Prometheus
public import Spooler
public import Store
import PrintModel
import Synchronization

/// The agent's metrics for a fleet's monitoring (`GET /metrics`).
///
/// Two kinds: what happens is counted as the spooler reports it (`record`,
/// called from the spooler's report beside the event journal: jobs finished,
/// latency, failovers), and what is true now is read at scrape time
/// (`exposition`: queue depth from the database, each role's printers from
/// the saved printers and from what the spooler saw while printing). The
/// spooler's render time and the folders' refused files are counted where
/// they happen, through swift-metrics.
///
/// Bootstrap swift-metrics once per process (`bootstrap`), in the command
/// that runs the agent: library code only ever counts.
public final class AgentMetrics: Sendable {
    /// Where swift-metrics counts once `bootstrap` made it the backend; `exposition` writes it out.
    public let registry: PrometheusCollectorRegistry
    /// The scrape-time series set at the last scrape, so that a printer
    /// removed from a role or a role gone stops being exported.
    private let lastScrape = Mutex<Set<Series>>([])

    /// One gauge's name and labels.
    struct Series: Hashable {
        let name: String
        let labels: [String]
        var dimensions: [(String, String)] { stride(from: 0, to: labels.count, by: 2).map { (labels[$0], labels[$0 + 1]) } }
        init(_ name: String, _ dimensions: KeyValuePairs<String, String>) {
            self.name = name
            labels = dimensions.flatMap { [$0.key, $0.value] }
        }
    }

    /// Only through `bootstrap`: the registry must be the one swift-metrics counts into.
    private init(registry: PrometheusCollectorRegistry) {
        self.registry = registry
    }

    /// Makes swift-metrics count into a new registry, and returns the agent's
    /// metrics over it. Call once per process (swift-metrics allows one bootstrap).
    public static func bootstrap(version: String = KioskPrintVersion.current) -> AgentMetrics {
        let registry = PrometheusCollectorRegistry()
        MetricsSystem.bootstrap(CatalogMetricsFactory(registry: registry))
        Gauge(label: MetricCatalog.buildInfo, dimensions: [("version", version)]).record(1)
        return AgentMetrics(registry: registry)
    }

    /// Counts what an event tells. Never waits: it is called on the spooler's
    /// report path, and the counters are atomic.
    public func record(_ event: SpoolerEvent) {
        switch event {
        case .finished(let job):
            Counter(label: MetricCatalog.jobsFinished, dimensions: [("role", job.role.name), ("state", job.state.rawValue)])
                .increment()
            if job.state == .completed, let completed = job.completedAt {
                Timer(label: MetricCatalog.jobLatency, dimensions: [("role", job.role.name)])
                    .record(duration: .seconds(max(0, completed.timeIntervalSince(job.createdAt))))
            }
        case .failover(let job, _, _):
            Counter(label: MetricCatalog.failovers, dimensions: [("role", job.role.name)]).increment()
        default:
            break
        }
    }

    /// The metrics now, in the Prometheus text format: the scrape-time gauges
    /// are read first (the queue and the saved printers from `store`, what
    /// printing showed from `spooler`). A database that cannot be read leaves
    /// them as the last scrape set them; the counters are exported regardless.
    public func exposition(store: KioskStore, spooler: Spooler?) async -> String {
        if let counts = try? await store.jobCounts(.unfinished), let assignments = try? await store.assignments() {
            let series = Self.scrapeSeries(counts: counts, assignments: assignments,
                                           conditions: spooler?.printerConditions() ?? [])
            lastScrape.withLock { last in
                for (gauge, value) in series { Gauge(label: gauge.name, dimensions: gauge.dimensions).record(value) }
                for gone in last.subtracting(series.keys) { Gauge(label: gone.name, dimensions: gone.dimensions).destroy() }
                last = Set(series.keys)
            }
            // Every role with printers gets its job counters at 0, so that the first failure is an increase.
            for role in Set(assignments.map(\.role.name)) {
                for state in [JobState.completed, .failed, .aborted, .canceled] {
                    Counter(label: MetricCatalog.jobsFinished, dimensions: [("role", role), ("state", state.rawValue)]).increment(by: 0)
                }
                Counter(label: MetricCatalog.failovers, dimensions: [("role", role)]).increment(by: 0)
            }
        }
        return registry.emitToString()
    }

    /// The gauges read at scrape time and their values.
    static func scrapeSeries(counts: [String: Int], assignments: [RoleAssignment],
                             conditions: [PrinterCondition]) -> [Series: Double] {
        var series: [Series: Double] = [:]
        // A role with printers and no unfinished job has a depth of 0, not no depth.
        for role in Set(counts.keys).union(assignments.map(\.role.name)) {
            series[Series(MetricCatalog.queueDepth, ["role": role])] = Double(counts[role] ?? 0)
        }
        let seen = Dictionary(conditions.map { ("\($0.role.name)|\($0.uri)", $0) }, uniquingKeysWith: { first, _ in first })
        for assignment in assignments {
            let status = PrinterStatus(assignment.printer.capabilities, seen: seen["\(assignment.role.name)|\(assignment.printer.uri)"])
            let role = assignment.role.name, printer = assignment.printer.name
            let rank = assignment.isPrimary ? "primary" : "backup-\(assignment.position)"
            series[Series(MetricCatalog.printerUp, ["role": role, "printer": printer, "rank": rank])] = status.up ? 1 : 0
            series[Series(MetricCatalog.paperLow, ["role": role, "printer": printer, "rank": rank])] = status.paperLow ? 1 : 0
            for state in [PrinterState.idle, .processing, .stopped, .unreachable] {
                series[Series(MetricCatalog.printerState, ["role": role, "printer": printer, "rank": rank, "state": state.rawValue])]
                    = status.state == state ? 1 : 0
            }
        }
        return series
    }
}

/// A printer as the metrics show it: what the spooler saw while printing
/// wins over what was saved at the printer's last check, because it is newer.
struct PrinterStatus: Equatable {
    let up: Bool
    let state: PrinterState
    let paperLow: Bool

    static let paperLowReasons: Set<String> = ["media-low", "media-near-end"]

    init(up: Bool, state: PrinterState, paperLow: Bool) {
        self.up = up; self.state = state; self.paperLow = paperLow
    }

    init(_ saved: PrinterCapabilities, seen: PrinterCondition?) {
        let savedLow = saved.stateReasons.contains { Self.paperLowReasons.contains($0.keyword) }
        guard let seen else {
            up = saved.attentionReasons.isEmpty && saved.state != .unreachable && saved.state != .stopped
            state = saved.state
            paperLow = savedLow
            return
        }
        paperLow = seen.warnings.map { !Self.paperLowReasons.isDisjoint(with: $0) } ?? savedLow
        if let trouble = seen.trouble {
            up = false
            state = trouble.contains("unreachable") ? .unreachable : .stopped
        } else {
            up = true
            // It printed or answered ready since: a saved stopped or unreachable is out of date.
            state = saved.state == .processing ? .processing : .idle
        }
    }
}
