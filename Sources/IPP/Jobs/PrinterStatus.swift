public import PrintModel

/// What a printer is doing now and what stops it, read on its own: the
/// spooler asks before and while printing, far more often than a full contact.
public struct PrinterStatus: Sendable, Hashable {
    public var state: PrinterState
    /// `printer-state-reasons` without `none`, severity suffixes split off
    /// (`media-empty-report` is `media-empty`, severity report).
    public var reasons: [StateReason]
    /// `printer-state-message`.
    public var message: String?
    /// `printer-is-accepting-jobs`; true when the printer does not say.
    public var isAcceptingJobs: Bool
    /// `queued-job-count`, when given.
    public var queuedJobCount: Int?

    public init(state: PrinterState, reasons: [StateReason] = [], message: String? = nil,
                isAcceptingJobs: Bool = true, queuedJobCount: Int? = nil) {
        self.state = state; self.reasons = reasons; self.message = message
        self.isAcceptingJobs = isAcceptingJobs; self.queuedJobCount = queuedJobCount
    }

    /// Reads the printer attributes of a Get-Printer-Attributes reply.
    public init(printerAttributes attributes: [IPPAttribute]) {
        var reasons: [StateReason] = []
        for keyword in attributes.strings("printer-state-reasons") where !keyword.isEmpty && keyword != "none" {
            let reason = StateReason(ippKeyword: keyword)
            if !reasons.contains(reason) { reasons.append(reason) }
        }
        self.init(state: attributes.int("printer-state").flatMap(PrinterState.init(ippValue:)) ?? .idle,
                  reasons: reasons, message: attributes.string("printer-state-message"),
                  isAcceptingJobs: attributes.bool("printer-is-accepting-jobs") ?? true,
                  queuedJobCount: attributes.int("queued-job-count"))
    }

    /// Whether a reason with this keyword is present, e.g. `has("media-empty")`.
    public func has(_ keyword: String) -> Bool { reasons.contains { $0.keyword == keyword } }

    /// A reason stops printing until someone acts (out of paper, jam, cover open...).
    public var needsAttention: Bool { reasons.contains(where: \.needsAttention) }
}

extension PrinterContact {
    /// The printer's state, reasons and message: a Get-Printer-Attributes
    /// asking for those alone. An IPP error status becomes `.ippError`; a
    /// certificate other than `pin` becomes `.certificateChanged`.
    public static func state(uri: String, timeout: Duration = .seconds(5),
                             pin: CertificateFingerprint? = nil) async throws(ContactError) -> PrinterStatus {
        let attributes = try await printerAttributes(uri: uri, timeout: timeout, requested: [
            "printer-state", "printer-state-reasons", "printer-state-message", "printer-is-accepting-jobs",
            "queued-job-count",
        ], pin: pin)
        return PrinterStatus(printerAttributes: attributes)
    }
}
