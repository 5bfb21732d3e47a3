/// A field's text (`^FD`) and where it was placed. The simulator draws no
/// fonts or barcodes; it keeps what they would have shown.
public struct ZPLField: Sendable, Hashable {
    public var x: Int
    public var y: Int
    public var data: String

    public init(x: Int, y: Int, data: String) {
        self.x = x; self.y = y; self.data = data
    }
}

/// One label a simulated Zebra printed: one `^XA ... ^XZ` format with the
/// settings in force at its `^XZ`.
public struct ZPLLabel: Sendable, Hashable {
    /// `^PW`, in dots.
    public var width: Int
    /// `^LL`, in dots.
    public var length: Int
    public var mediaTracking: ZPLMediaTracking
    public var mediaMode: ZPLMediaMode
    /// `^PQ`'s quantity (1 without it).
    public var copies: Int
    /// The label's graphic fields, placed at `^LH` + `^FO`, `width` by `length` dots.
    public var bitmap: DotBitmap
    /// Field data, in order.
    public var fields: [ZPLField]
}

/// Everything a simulated Zebra received and did, for a test to read.
public struct ZPLRecord: Sendable, Hashable {
    /// Labels printed, in order. A format finished while the printer cannot
    /// print waits and is printed (added here) once it can.
    public var labels: [ZPLLabel] = []
    /// Formats finished but waiting for paper, the head, or the end of a pause.
    public var waitingLabels: [ZPLLabel] = []
    /// Each `~HS` answer, as sent (three STX ... ETX CR LF strings); an
    /// unanswered request is not listed.
    public var hostStatusAnswers: [String] = []
    /// How many `~HS` requests came, answered or not.
    public var hostStatusRequests = 0
    /// Every command recognised, in order, by name ("^XA", "^GF", "~HS").
    public var commands: [String] = []
    /// Commands accepted but not simulated (fonts, barcodes, ...), with their parameters.
    public var ignoredCommands: [String] = []
    /// What an encoder got wrong: data that does not match its counts, a
    /// command outside a format, text between commands.
    public var problems: [String] = []
    public var bytesReceived = 0
    /// Every byte received, in order (the first 32 MB).
    public var received: [UInt8] = []
    public var bytesSent = 0
    /// TCP connections accepted (0 on a pseudo-terminal).
    public var connections = 0
}
