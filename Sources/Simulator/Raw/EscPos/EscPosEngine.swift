/// The ESC/POS interpreter behind the simulated receipt printers: fed bytes,
/// it prints onto a paper tape, cuts pieces, pulses the drawer and answers
/// status requests, as Epson's ESC/POS Application Programming Guide
/// describes a TM-series roll printer in standard mode.
///
/// Written from the reference, not from KioskPrint's encoder, so that the
/// two disagree where the encoder is wrong.
struct EscPosEngine: RawPrinterEngine {
    let configuration: EscPosPrinterSimulator.Configuration
    private(set) var state = EscPosPrinterState.ready
    var record: EscPosRecord

    /// Received bytes not interpreted yet: the start of a command still arriving.
    private var pending: [UInt8] = []
    /// Text waiting in the line buffer for LF (or ESC J, ESC d) to print it.
    var lineRuns: [EscPosTextRun] = []
    /// Where the next character goes, in dots from the left margin (`ESC $`).
    var printPosition = 0
    /// The character settings in force: `ESC t`, `ESC E`, `GS !`.
    var codePage: UInt8 = 0
    var bold = false
    var widthScale = 1
    var heightScale = 1
    /// The left margin in dots (GS L): where lines and raster images start.
    var leftMargin = 0
    /// The horizontal motion unit as 1/x inch (GS P); ESC $ and GS L count in it.
    var horizontalUnitsPerInch: Int
    /// Line spacing in dots (ESC 2, ESC 3).
    var lineSpacing: Int
    /// The vertical motion unit as 1/x inch (GS P); ESC J, ESC 3 and GS V count in it.
    var verticalUnitsPerInch: Int
    /// Raster graphics stored by GS ( L fn 112, printed by fn 50.
    var storedGraphic: DotBitmap?
    /// GS a n: which status items Automatic Status Back sends.
    var automaticStatusMask: UInt8 = 0
    /// Process IDs waiting for the printer to be able to print again.
    var heldProcessIDs: [[UInt8]] = []

    init(configuration: EscPosPrinterSimulator.Configuration) {
        self.configuration = configuration
        record = EscPosRecord(width: configuration.printableWidth)
        verticalUnitsPerInch = configuration.verticalMotionUnitsPerInch
        horizontalUnitsPerInch = configuration.verticalMotionUnitsPerInch
        lineSpacing = configuration.dotsPerInch / 6
    }

    mutating func receive(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        pending += bytes
        var answers: [UInt8] = []
        var offset = 0
        while offset < pending.count, let used = interpret(at: offset, answers: &answers) {
            offset += used
        }
        pending.removeFirst(offset)
        return answers
    }

    mutating func connectionEnded() {
        guard !pending.isEmpty else { return }
        let head = pending.prefix(8).map { String($0, radix: 16, uppercase: true) }.joined(separator: " ")
        record.problems.append("the connection ended inside a command (\(pending.count) bytes starting \(head)); "
                               + "the simulator dropped them")
        pending.removeAll()
    }

    /// Sets the sensors. Returns what the printer sends on its own because of
    /// the change: an ASB report when a watched item changed, and process IDs
    /// held while it could not print, once it can.
    mutating func setState(_ new: EscPosPrinterState) -> [UInt8] {
        let before = state
        state = new
        var answers: [UInt8] = []
        if automaticStatusMask != 0, before.watched(by: automaticStatusMask) != new.watched(by: automaticStatusMask) {
            answers += new.automaticStatus
        }
        if new.canPrint {
            for id in heldProcessIDs {
                answers += processIDResponse(id)
                record.processIDResponses.append(String(decoding: id, as: UTF8.self))
            }
            heldProcessIDs.removeAll()
        }
        return answers
    }

    /// Interprets the command at `start` of the pending bytes; returns how
    /// many bytes it took, or nil when it has not fully arrived.
    private mutating func interpret(at start: Int, answers: inout [UInt8]) -> Int? {
        let available = pending.count - start
        let first = pending[start]
        switch first {
        case 0x0A:  // LF: print the line buffer and feed one line
            log("LF")
            printLine(thenFeed: lineSpacing, command: "LF")
            return 1
        case 0x0D:  // CR: ignored when auto line feed is off, as on network and USB models
            return 1
        case 0x09:  // HT: kept as a tab in the text
            addText([first])
            return 1
        case 0x10:
            return interpretDLE(pending[start..<start + available], answers: &answers)
        case 0x1B:
            return interpretESC(pending[start..<start + available])
        case 0x1D:
            return interpretGS(pending[start..<start + available], answers: &answers)
        case 0x1C:
            return interpretFS(pending[start..<start + available])
        case 0x20...:
            // A run of text, taken whole.
            var end = start
            while end < pending.count, pending[end] >= 0x20 { end += 1 }
            addText(pending[start..<end])
            return end - start
        default:
            record.unknownCommands.append([first])
            return 1
        }
    }

    // MARK: Helpers the command files share

    mutating func log(_ command: String) { record.commands.append(command) }

    /// A command recognised and skipped whole.
    mutating func ignore(_ command: String) {
        log(command)
        record.ignoredCommands.append(command)
    }

    /// Bytes that start nothing known: `count` of them are skipped.
    mutating func unknown(_ bytes: ArraySlice<UInt8>, count: Int) -> Int {
        record.unknownCommands.append(Array(bytes.prefix(count)))
        return min(count, bytes.count)
    }

    /// Converts `units` of the vertical motion unit to whole dots, dropping a
    /// fraction as the guide says the mechanism does.
    func dots(fromUnits units: Int) -> Int {
        units * configuration.dotsPerInch / max(1, verticalUnitsPerInch)
    }

    func processIDResponse(_ id: [UInt8]) -> [UInt8] {
        [0x37, 0x22] + id + [0x00]
    }
}

extension ArraySlice<UInt8> {
    /// The byte `offset` places after the slice's start.
    subscript(at offset: Int) -> UInt8 { self[startIndex + offset] }

    /// The little-endian number in `count` bytes from `offset` (ESC/POS's nL nH, p1..p4).
    func littleEndian(at offset: Int, count: Int) -> Int {
        (0..<count).reduce(0) { $0 | Int(self[at: offset + $1]) << (8 * $1) }
    }
}
