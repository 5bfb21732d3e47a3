/// How a piece of paper was cut off the roll.
public struct EscPosCut: Sendable, Hashable {
    /// Full (the piece falls) or partial (one point left uncut).
    public enum Kind: Sendable, Hashable {
        case full
        case partial
    }

    public var kind: Kind
    /// The `m` of `GS V m [n]`: 0/48 and 1/49 cut where the paper is; 65/66
    /// (and 97/98, 103/104) feed to the cut position first.
    public var mode: UInt8
    /// Whether the command fed the paper to the cutting position first
    /// (`GS V` 65/66 and their kin). The simulator's cutter sits at the print
    /// line, so "fed to the cutting position" means the cut falls where the
    /// paper is now, plus `extraFeedDots`.
    public var fedToCutPosition: Bool
    /// The `n × vertical motion unit` fed before the cut, in dots (0 for 0/48, 1/49).
    public var extraFeedDots: Int

    public init(kind: Kind, mode: UInt8, fedToCutPosition: Bool, extraFeedDots: Int) {
        self.kind = kind; self.mode = mode; self.fedToCutPosition = fedToCutPosition; self.extraFeedDots = extraFeedDots
    }
}

/// A line of text printed in character mode. The simulator draws no glyphs;
/// it keeps the characters' bytes, where each run starts and in what style,
/// and the row the line was printed at.
public struct EscPosTextLine: Sendable, Hashable {
    /// The row of the piece at which the line was printed (its cells' top).
    public var row: Int
    /// The runs, in the order they were sent.
    public var runs: [EscPosTextRun]

    public init(row: Int, runs: [EscPosTextRun]) {
        self.row = row; self.runs = runs
    }

    /// Every run's bytes as ISO 8859-1 characters, one after another.
    public var text: String { runs.map(\.latin1).joined() }
}

/// Characters printed from one position in one style and code page.
public struct EscPosTextRun: Sendable, Hashable {
    /// Dots from the left margin to the first character's cell (`ESC $`).
    public var x: Int
    /// The character bytes, undecoded.
    public var bytes: [UInt8]
    /// n of the `ESC t n` in force.
    public var codePage: UInt8
    /// `ESC E`.
    public var bold: Bool
    /// `GS !`: magnification across and down.
    public var widthScale: Int
    public var heightScale: Int

    public init(x: Int, bytes: [UInt8], codePage: UInt8, bold: Bool, widthScale: Int, heightScale: Int) {
        self.x = x; self.bytes = bytes; self.codePage = codePage; self.bold = bold
        self.widthScale = widthScale; self.heightScale = heightScale
    }

    /// The bytes as ISO 8859-1 characters.
    public var latin1: String { String(bytes.map { Character(Unicode.Scalar($0)) }) }
}

/// One piece of paper cut off the roll, or the paper printed since the last
/// cut (`EscPosRecord.uncut`).
public struct EscPosPiece: Sendable, Hashable {
    /// Every row of dots the piece holds, fed rows blank, at the printable width.
    public var bitmap: DotBitmap
    /// How it was cut; nil while it is still on the roll.
    public var cut: EscPosCut?
    /// Text printed in character mode, with its rows.
    public var text: [EscPosTextLine]

    /// Its length in dots (rows), from the previous cut (or the start) to this one.
    public var lengthInDots: Int { bitmap.height }
}

/// A beep of the buzzer (`ESC ( A pL pH 48 n c t`).
public struct Beep: Sendable, Hashable {
    /// The sound pattern n (what it sounds like depends on the model).
    public var pattern: Int
    /// How many beeps.
    public var count: Int
    public var cycleMilliseconds: Int
}

/// A pulse sent to a cash drawer.
public struct DrawerPulse: Sendable, Hashable {
    /// The drawer kick-out connector pin: 2 or 5.
    public var pin: Int
    public var onMilliseconds: Int
    public var offMilliseconds: Int
    /// True for the real-time `DLE DC4 1 m t`, false for `ESC p m t1 t2`.
    public var realTime: Bool

    public init(pin: Int, onMilliseconds: Int, offMilliseconds: Int, realTime: Bool) {
        self.pin = pin; self.onMilliseconds = onMilliseconds; self.offMilliseconds = offMilliseconds
        self.realTime = realTime
    }
}

/// A status request and the byte the printer answered.
public struct EscPosStatusQuery: Sendable, Hashable {
    /// The request, e.g. "DLE EOT 1" or "GS r 1".
    public var command: String
    /// The answer; nil when the printer answers nothing to it.
    public var answer: UInt8?
}

/// Everything a simulated ESC/POS printer received and did, for a test to read.
public struct EscPosRecord: Sendable, Hashable {
    /// The pieces cut off, in order.
    public var pieces: [EscPosPiece] = []
    /// What was printed since the last cut, still on the roll.
    public var uncut: EscPosPiece
    public var drawerPulses: [DrawerPulse] = []
    /// Each `ESC ( A` fn 48 (beep the buzzer), in order.
    public var beeps: [Beep] = []
    /// Every DLE EOT and GS r, in order, with the answer.
    public var statusQueries: [EscPosStatusQuery] = []
    /// The process IDs (GS ( H fn 48) answered, in order; one held while the
    /// printer cannot print is answered once it can again.
    public var processIDResponses: [String] = []
    /// Each `GS a n`'s n (Automatic Status Back), in order.
    public var automaticStatusSettings: [UInt8] = []
    /// How many times `ESC @` initialized the printer.
    public var initializations = 0
    /// Every command recognised, in order, with its small parameters ("ESC J 24", "GS V 66 0").
    public var commands: [String] = []
    /// Commands recognised and skipped whole, but not simulated (ESC a, GS k, ...).
    public var ignoredCommands: [String] = []
    /// Bytes that began no command the simulator knows; skipped (the prefix
    /// and its next byte), not fatal, as a printer skips what it does not understand.
    public var unknownCommands: [[UInt8]] = []
    /// Printing commands not executed because the printer had stopped (paper
    /// out, cover open, offline, cutter error), e.g. "GS v 0 (24 rows)".
    public var notExecuted: [String] = []
    /// Things an encoder got wrong that a real printer would have shrugged at:
    /// an image wider than the paper, a data count that does not match, a
    /// command cut off by the end of a connection.
    public var problems: [String] = []
    /// Bytes read from clients, over every connection.
    public var bytesReceived = 0
    /// Every byte received, in order (the first 32 MB).
    public var received: [UInt8] = []
    /// Bytes answered.
    public var bytesSent = 0
    /// TCP connections accepted (0 on a pseudo-terminal).
    public var connections = 0

    init(width: Int) {
        uncut = EscPosPiece(bitmap: DotBitmap(width: width), cut: nil, text: [])
    }
}
