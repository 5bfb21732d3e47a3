/// What a simulated Zebra printer's sensors report, set by a test; `~HS`
/// answers from it.
public struct ZPLPrinterState: Sendable, Hashable {
    /// Out of labels (or paper): nothing prints until it is back.
    public var paperOut: Bool
    /// Paused (the panel's pause key, or `~PP`): formats wait.
    public var paused: Bool
    /// The print head is open (up).
    public var headUp: Bool

    public init(paperOut: Bool = false, paused: Bool = false, headUp: Bool = false) {
        self.paperOut = paperOut; self.paused = paused; self.headUp = headUp
    }

    /// Labels in, not paused, head down.
    public static let ready = ZPLPrinterState()

    /// Whether labels print now; otherwise finished formats wait in the buffer.
    public var canPrint: Bool { !paperOut && !paused && !headUp }
}

/// How the printer finds the label's end (`^MN`).
public enum ZPLMediaTracking: Sendable, Hashable {
    /// `^MNN`: continuous media; the label length is `^LL`.
    case continuous
    /// `^MNY` or `^MNW`: labels with gaps (web sensing).
    case gap
    /// `^MNM`: a black mark on the back.
    case mark
    /// Anything else (`A` auto-detect, `V` continuous variable length), by its letter.
    case other(String)

    init(code: String) {
        switch code {
        case "N": self = .continuous
        case "Y", "W": self = .gap
        case "M": self = .mark
        default: self = .other(code)
        }
    }
}

/// What happens to a printed label (`^MM`).
public enum ZPLMediaMode: Sendable, Hashable {
    /// `^MMT`: torn off at the tear bar.
    case tearOff
    /// `^MMC`: cut by the cutter.
    case cutter
    /// `^MMD`: cut, delayed until the next label or a command.
    case delayedCut
    /// `^MMP`: peeled off the liner.
    case peelOff
    /// `^MMR`: rewound.
    case rewind
    /// `^MMA`: handed to an applicator.
    case applicator
    /// Anything else (`F` RFID, `K` kiosk, ...), by its letter.
    case other(String)

    init(code: String) {
        switch code {
        case "T": self = .tearOff
        case "C": self = .cutter
        case "D": self = .delayedCut
        case "P": self = .peelOff
        case "R": self = .rewind
        case "A": self = .applicator
        default: self = .other(code)
        }
    }

    /// The print-mode digit of `~HS` string 2 (ZPL II Programming Guide:
    /// 0 rewind, 1 peel-off, 2 tear-off, 3 cutter, 4 applicator, 5 delayed
    /// cut). Modes past the guide's table report as tear-off.
    var hostStatusDigit: Int {
        switch self {
        case .rewind: 0
        case .peelOff: 1
        case .tearOff, .other: 2
        case .cutter: 3
        case .applicator: 4
        case .delayedCut: 5
        }
    }
}
