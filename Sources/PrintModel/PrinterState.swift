/// `printer-state`: what the printer is doing now.
public enum PrinterState: String, Codable, Sendable, CustomStringConvertible {
    case idle
    case processing
    case stopped
    /// The printer could not be reached: not an IPP value, our own verdict.
    case unreachable

    /// The IPP enum value (RFC 8011 §5.4.11).
    public init?(ippValue: Int) {
        switch ippValue {
        case 3: self = .idle
        case 4: self = .processing
        case 5: self = .stopped
        default: return nil
        }
    }

    public var description: String { rawValue }
}

/// One `printer-state-reasons` keyword with its severity suffix removed:
/// `media-empty-error` is reported as `media-empty` with severity `.error`.
public struct StateReason: Hashable, Codable, Sendable, CustomStringConvertible {
    public enum Severity: String, Codable, Sendable { case report, warning, error }

    public var keyword: String
    public var severity: Severity?

    public init(keyword: String, severity: Severity? = nil) {
        self.keyword = keyword; self.severity = severity
    }

    /// Parses an IPP keyword, stripping a `-report`, `-warning` or `-error` suffix.
    public init(ippKeyword raw: String) {
        for severity in [Severity.error, .warning, .report] {
            let suffix = "-" + severity.rawValue
            if raw.hasSuffix(suffix) && raw.count > suffix.count {
                self.init(keyword: String(raw.dropLast(suffix.count)), severity: severity)
                return
            }
        }
        self.init(keyword: raw, severity: nil)
    }

    public var description: String { keyword }

    /// A condition worth telling someone of that does not stop printing:
    /// paper or a supply near its end.
    public var isWarning: Bool {
        !needsAttention && ["media-low", "toner-low", "marker-supply-low", "media-near-end"].contains(keyword)
    }

    /// Reasons that stop a kiosk job from printing until someone acts.
    public var needsAttention: Bool {
        ["media-empty", "media-needed", "media-jam", "cover-open", "door-open", "offline",
         "paused", "shutdown", "toner-empty", "marker-supply-empty", "input-tray-missing",
         "output-area-full"].contains(keyword)
    }
}
