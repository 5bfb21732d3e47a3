import Foundation
import Glibc
public import Logging

/// Log lines on standard error, one per event, in the form journald reads:
/// under systemd (`$JOURNAL_STREAM` set) each line starts with its syslog
/// priority, `<6>job 12 ... completed`, so `journalctl -p warning` filters
/// them and no timestamp is repeated; in a terminal each line starts with
/// the time and the level instead. Metadata follows as `key=value`.
public struct AgentLogHandler: LogHandler {
    public var logLevel: Logger.Level
    public var metadata: Logger.Metadata = [:]
    public var metadataProvider: Logger.MetadataProvider?
    let forJournal: Bool
    let output: Int32

    /// - Parameters:
    ///   - forJournal: nil to decide from `$JOURNAL_STREAM`.
    ///   - output: the file descriptor written to; standard error by default.
    public init(level: Logger.Level, forJournal: Bool? = nil, output: Int32 = 2) {
        logLevel = level
        self.forJournal = forJournal ?? (ProcessInfo.processInfo.environment["JOURNAL_STREAM"] != nil)
        self.output = output
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var merged = metadata
        if let provided = metadataProvider?.get() { merged.merge(provided) { _, new in new } }
        if let extra = event.metadata { merged.merge(extra) { _, new in new } }
        let fields = merged.sorted { $0.key < $1.key }.map { " \($0.key)=\(Self.quoted("\($0.value)"))" }.joined()
        // One write per line, so lines from several tasks never interleave.
        let text = event.message.description.replacingOccurrences(of: "\n", with: " | ")
        let line = forJournal
            ? "<\(Self.priority(event.level))>\(text)\(fields)\n"
            : "\(Self.timestamp()) \(event.level.rawValue.uppercased()) \(text)\(fields)\n"
        var bytes = Array(line.utf8)
        _ = bytes.withUnsafeMutableBytes { write(output, $0.baseAddress, $0.count) }
    }

    /// sd-daemon(3) priorities: 7 debug ... 2 critical.
    static func priority(_ level: Logger.Level) -> Int {
        switch level {
        case .trace, .debug: 7
        case .info: 6
        case .notice: 5
        case .warning: 4
        case .error: 3
        case .critical: 2
        }
    }

    private static func quoted(_ value: String) -> String {
        value.contains(" ") || value.isEmpty ? "\"\(value)\"" : value
    }

    private static func timestamp() -> String {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        var parts = tm()
        var seconds = now.tv_sec
        localtime_r(&seconds, &parts)
        return String(format: "%04d-%02d-%02d %02d:%02d:%02d.%03d", parts.tm_year + 1900, parts.tm_mon + 1, parts.tm_mday,
                      parts.tm_hour, parts.tm_min, parts.tm_sec, Int(now.tv_nsec / 1_000_000))
    }
}
