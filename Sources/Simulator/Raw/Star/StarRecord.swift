/// How a piece of paper came off a simulated Star printer.
public struct StarCut: Sendable, Hashable {
    /// Full (the piece falls), partial (one point left uncut), or torn at the tear bar.
    public enum Kind: Sendable, Hashable {
        case full
        case partial
        case tearBar
    }

    public var kind: Kind
    /// The command that made it, with its mode: "ESC FF NUL (F 13)", "ESC d 3".
    public var command: String

    public init(kind: Kind, command: String) { self.kind = kind; self.command = command }
}

/// One piece of paper off the roll, or what was printed since the last cut (`StarRecord.uncut`).
public struct StarPiece: Sendable, Hashable {
    /// Every row of dots the piece holds, fed rows blank, at the printable width.
    public var bitmap: DotBitmap
    /// How it came off; nil while it is still on the roll.
    public var cut: StarCut?

    /// Its length in dots (rows), from the previous cut (or the start) to this one.
    public var lengthInDots: Int { bitmap.height }
}

/// Everything a simulated Star printer received and did, for a test to read.
public struct StarRecord: Sendable, Hashable {
    /// The pieces cut (or torn) off, in order.
    public var pieces: [StarPiece] = []
    /// What was printed since the last cut, still on the roll.
    public var uncut: StarPiece
    /// Each drawer pulse: device 1 is connector pin 2, device 2 pin 5.
    public var drawerPulses: [DrawerPulse] = []
    /// How many `ESC ACK SOH` were answered.
    public var statusRequests = 0
    /// How many times `ESC @` initialized the printer.
    public var initializations = 0
    /// Every command recognised, in order, with its small parameters ("ESC * r F 13", "ESC d 3").
    public var commands: [String] = []
    /// Bytes that began no command of this printer's language; skipped, as a printer skips what it does not understand.
    public var unknownCommands: [[UInt8]] = []
    /// Printing commands not executed because the printer had stopped.
    public var notExecuted: [String] = []
    /// Things an encoder got wrong that a real printer would have shrugged at:
    /// a command of another Star language, raster outside raster mode, a row
    /// wider than the paper, a command cut off by the end of a connection.
    public var problems: [String] = []
    /// Bytes read from clients, over every connection.
    public var bytesReceived = 0
    /// Bytes answered.
    public var bytesSent = 0
    /// TCP connections accepted (0 on a pseudo-terminal).
    public var connections = 0

    init(width: Int) {
        uncut = StarPiece(bitmap: DotBitmap(width: width), cut: nil)
    }
}
