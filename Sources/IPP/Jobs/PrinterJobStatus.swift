/// `job-state`: where a job is at the printer (RFC 8011 §5.3.7).
public enum PrinterJobState: Int, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case pending = 3
    case pendingHeld = 4
    case processing = 5
    case processingStopped = 6
    case canceled = 7
    case aborted = 8
    case completed = 9

    /// Canceled, aborted or completed: the job will not change again.
    public var isTerminal: Bool { rawValue >= 7 }

    /// The IPP keyword, e.g. `processing-stopped`.
    public var description: String {
        switch self {
        case .pending: "pending"
        case .pendingHeld: "pending-held"
        case .processing: "processing"
        case .processingStopped: "processing-stopped"
        case .canceled: "canceled"
        case .aborted: "aborted"
        case .completed: "completed"
        }
    }
}

/// What a printer says about one of its jobs (Get-Job-Attributes, Get-Jobs).
public struct PrinterJobStatus: Sendable, Hashable {
    /// The printer's `job-id`.
    public var id: Int
    /// `job-name` as the printer keeps it.
    public var name: String?
    public var state: PrinterJobState
    /// `job-state-reasons` without `none`, e.g. `job-printing`,
    /// `processing-to-stop-point`, `job-canceled-by-user`.
    public var stateReasons: [String]
    /// `job-state-message`: the printer's words for the state.
    public var stateMessage: String?
    /// `job-impressions`: the document's size in impressions, when the printer knows it.
    public var impressions: Int?
    /// `job-impressions-completed`: impressions printed so far (all copies).
    public var impressionsCompleted: Int?
    /// `job-media-sheets-completed`, when the printer reports it.
    public var mediaSheetsCompleted: Int?
    /// `job-printer-state-message`: the printer's own message while it had the job.
    public var printerStateMessage: String?
    /// `job-uri`.
    public var uri: String?

    public init(id: Int, name: String? = nil, state: PrinterJobState, stateReasons: [String] = [],
                stateMessage: String? = nil, impressions: Int? = nil, impressionsCompleted: Int? = nil,
                mediaSheetsCompleted: Int? = nil, printerStateMessage: String? = nil, uri: String? = nil) {
        self.id = id; self.name = name; self.state = state; self.stateReasons = stateReasons
        self.stateMessage = stateMessage; self.impressions = impressions
        self.impressionsCompleted = impressionsCompleted; self.mediaSheetsCompleted = mediaSheetsCompleted
        self.printerStateMessage = printerStateMessage; self.uri = uri
    }

    /// Reads one job's attributes (one job group of a reply). Nil without a
    /// `job-id` or a `job-state` this type knows: such a job cannot be followed.
    public init?(jobAttributes attributes: [IPPAttribute]) {
        guard let id = attributes.int("job-id"),
              let state = attributes.int("job-state").flatMap(PrinterJobState.init(rawValue:))
        else { return nil }
        self.init(id: id, name: attributes.string("job-name"), state: state,
                  stateReasons: attributes.strings("job-state-reasons").filter { !$0.isEmpty && $0 != "none" },
                  stateMessage: attributes.string("job-state-message"),
                  impressions: attributes.int("job-impressions"),
                  impressionsCompleted: attributes.int("job-impressions-completed"),
                  mediaSheetsCompleted: attributes.int("job-media-sheets-completed"),
                  printerStateMessage: attributes.string("job-printer-state-message"),
                  uri: attributes.string("job-uri"))
    }

    /// What status and job listings ask for.
    static let requestedAttributes = [
        "job-id", "job-uri", "job-name", "job-state", "job-state-reasons", "job-state-message",
        "job-impressions", "job-impressions-completed", "job-media-sheets-completed", "job-printer-state-message",
    ]
}

/// Which jobs a Get-Jobs request lists (`which-jobs`).
public enum WhichJobs: String, Sendable, Hashable, CaseIterable {
    /// Pending, held, processing and stopped jobs.
    case notCompleted = "not-completed"
    /// Completed, canceled and aborted jobs the printer still remembers.
    case completed
    /// Both.
    case all
}
