import Metrics
public import PrintModel

/// What the spooler measures for the agent's `GET /metrics`, through
/// swift-metrics: the label names here, the exporter in the agent. Without a
/// metrics backend (the command line, the tests) the measurements go nowhere.
public enum SpoolerMetrics {
    /// Timer: seconds spent drawing one job for its printer (the
    /// `DocumentPreparer`), by `role`.
    public static let renderDuration = "kioskprint_render_duration_seconds"

    /// One job drawn for `role`'s printer, at intake or when sent.
    static func recordDrawing(_ duration: Duration, role: Role) {
        Timer(label: renderDuration, dimensions: [("role", role.name)]).record(duration: duration)
    }
}

/// What is known now of one saved printer from printing to it, as opposed to
/// what was read when it was last checked (`SavedPrinter.capabilities`).
public struct PrinterCondition: Sendable, Hashable {
    public let role: Role
    public let uri: String
    /// The reasons the printer cannot print (`unreachable`, `media-empty`...);
    /// nil when it printed or answered ready since its last trouble.
    public let trouble: [String]?
    /// What the printer warned of the last time it was ready (`media-low`...);
    /// nil when it has not been ready since the agent started.
    public let warnings: [String]?

    public init(role: Role, uri: String, trouble: [String]?, warnings: [String]?) {
        self.role = role; self.uri = uri; self.trouble = trouble; self.warnings = warnings
    }
}

extension Spooler {
    /// Each printer's trouble and warnings as the spooler saw them last:
    /// what `printerTrouble`, `printerRecovered` and `printerWarning` events
    /// reported, including warnings that have since gone (no event says so).
    /// Printers no job went to since the agent started are absent.
    public func printerConditions() -> [PrinterCondition] {
        trouble.snapshot().compactMap { key, value in
            guard let bar = key.firstIndex(of: "|"), let role = try? Role(String(key[..<bar])) else { return nil }
            return PrinterCondition(role: role, uri: String(key[key.index(after: bar)...]), trouble: value.trouble,
                                    warnings: value.warnings)
        }
    }
}
