import PrintModel

/// The interpreter behind the simulated Star printers, in one of Star's
/// three languages (the printer's emulation), written from Star's
/// specifications and not from KioskPrint's encoders:
///
/// - every language: `ESC @`, `ESC ACK SOH` (answered with the automatic
///   status at once, even while stopped), `ESC BEL n1 n2`, `BEL`/`FS` (device
///   1), `SUB`/`EM` (device 2), `ESC RS a n`, `ETB`, a lone `NUL`;
/// - Star Graphic and Star Line: the raster commands `ESC * r`, rows `b` and
///   `k`, `ESC FF NUL` and `ESC FF EOT` (STAR Line Mode Command
///   Specifications Rev 1.12 §3.4);
/// - Star Line and StarPRNT: the cut `ESC d n` (3-44), outside raster mode;
/// - StarPRNT: raster blocks `ESC GS S m xL xH yL yH n d...`.
///
/// A command of another Star language is skipped and noted as a problem, so
/// an encoder that mixes them up fails its test. The cutter sits at the
/// print line: a piece is as long as what was printed and fed since the last cut.
struct StarEngine: RawPrinterEngine {
    let configuration: StarPrinterSimulator.Configuration
    private(set) var state = StarPrinterState.ready
    var record: StarRecord

    private var pending: [UInt8] = []
    /// In raster mode (`ESC * r A` until `ESC * r B`).
    private var inRaster = false
    /// What `ESC FF NUL` and `ESC FF EOT` do (`ESC * r F`, `ESC * r E`).
    private var formFeedMode = StarEngine.initialEndMode, endMode = StarEngine.initialEndMode
    /// Rows printed since the last form feed or end of document: quitting raster mode runs the EOT mode on them.
    private var rowsSinceFormFeed = false
    /// The ETB counter (five bits) and the ETBs waiting for a stopped printer to print again.
    private var etbCounter = 0, heldETBs = 0
    /// Device 1's pulse from `ESC BEL n1 n2`, in milliseconds (Star's start value: 200 on, 200 off).
    private var pulse = (on: 200, off: 200)

    /// The EOT and FF modes' start value on a printer with an autocutter: feed and partial cut.
    static let initialEndMode = 13

    init(configuration: StarPrinterSimulator.Configuration) {
        self.configuration = configuration
        record = StarRecord(width: configuration.printableWidth)
    }

    private var language: PrinterLanguage { configuration.emulation }
    private var speaksRaster: Bool { language == .starGraphic || language == .starLine }

    mutating func receive(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        pending += bytes
        var answers: [UInt8] = []
        var offset = 0
        while offset < pending.count, let used = interpret(pending[offset...], answers: &answers) { offset += used }
        pending.removeFirst(offset)
        return answers
    }

    mutating func connectionEnded() {
        guard !pending.isEmpty else { return }
        record.problems.append("the connection ended inside a command (\(pending.count) bytes); the simulator dropped them")
        pending.removeAll()
    }

    /// Sets the sensors; a Star printer sends nothing unasked here (automatic
    /// status sending is off). ETBs held while it was stopped count once it prints again.
    mutating func setState(_ new: StarPrinterState) -> [UInt8] {
        state = new
        if new.canPrint, heldETBs > 0 { etbCounter = (etbCounter + heldETBs) & 0x1F; heldETBs = 0 }
        return []
    }

    /// The command at the start of `bytes`: how many bytes it took, or nil until it has fully arrived.
    private mutating func interpret(_ bytes: ArraySlice<UInt8>, answers: inout [UInt8]) -> Int? {
        switch bytes[at: 0] {
        case 0x00: return 1  // NUL between pages (Star's CUPS filter sends one)
        case 0x17:  // ETB: counted once everything before it has printed; held while the printer is stopped
            log("ETB")
            if state.canPrint { etbCounter = (etbCounter + 1) & 0x1F } else { heldETBs += 1 }
            return 1
        case 0x07, 0x1C: drive(device: 1, command: bytes[at: 0] == 0x07 ? "BEL" : "FS"); return 1
        case 0x1A, 0x19: drive(device: 2, command: bytes[at: 0] == 0x1A ? "SUB" : "EM"); return 1
        case 0x62 where speaksRaster && inRaster, 0x6B where speaksRaster && inRaster: return rasterRow(bytes)
        case 0x1B: return escape(bytes, answers: &answers)
        default:
            record.unknownCommands.append([bytes[at: 0]])
            if inRaster { record.problems.append("byte \(bytes[at: 0]) in raster mode starts no raster command") }
            return 1
        }
    }

    private mutating func escape(_ bytes: ArraySlice<UInt8>, answers: inout [UInt8]) -> Int? {
        guard bytes.count >= 2 else { return nil }
        switch bytes[at: 1] {
        case 0x40:  // ESC @
            log("ESC @")
            record.initializations += 1
            return 2
        case 0x06:  // ESC ACK SOH: real time, answered whatever the printer is doing
            guard bytes.count >= 3 else { return nil }
            guard bytes[at: 2] == 0x01 else { return unknown(bytes, count: 3) }
            record.statusRequests += 1
            answers += state.automaticStatus(version: language == .starPRNT ? 6 : 3, etbCounter: etbCounter)
            return 3
        case 0x07:  // ESC BEL n1 n2: device 1's pulse, 10 ms units
            guard bytes.count >= 4 else { return nil }
            pulse = (Int(bytes[at: 2]) * 10, Int(bytes[at: 3]) * 10)
            log("ESC BEL \(bytes[at: 2]) \(bytes[at: 3])")
            return 4
        case 0x1E:  // ESC RS a n: automatic status on or off (kept off here)
            guard bytes.count >= 4 else { return nil }
            log("ESC RS \(Character(Unicode.Scalar(bytes[at: 2]))) \(bytes[at: 3])")
            return 4
        case 0x2A where speaksRaster:  // ESC * r ...
            return rasterCommand(bytes)
        case 0x0C where speaksRaster:  // ESC FF NUL / ESC FF EOT
            guard bytes.count >= 3 else { return nil }
            guard inRaster else { problem("ESC FF outside raster mode"); return 3 }
            switch bytes[at: 2] {
            case 0x00: endPage(mode: formFeedMode, command: "ESC FF NUL")
            case 0x04: endPage(mode: endMode, command: "ESC FF EOT")
            default: return unknown(bytes, count: 3)
            }
            return 3
        case 0x64 where language != .starGraphic:  // ESC d n
            guard bytes.count >= 3 else { return nil }
            guard !inRaster else { problem("ESC d in raster mode, where only raster commands work"); return 3 }
            cut(bytes[at: 2])
            return 3
        case 0x1D where language == .starPRNT:
            guard bytes.count >= 3 else { return nil }
            guard bytes[at: 2] == 0x53 else { return unknown(bytes, count: 3) }
            return rasterBlock(bytes)
        default:
            problem("ESC \(bytes[at: 1]) is not a \(language) command this printer knows")
            return unknown(bytes, count: 2)
        }
    }

    // MARK: Raster mode (Star Graphic, Star Line)

    /// `ESC * r L` and `ESC * r L n NUL`.
    private mutating func rasterCommand(_ bytes: ArraySlice<UInt8>) -> Int? {
        guard bytes.count >= 4 else { return nil }
        guard bytes[at: 2] == 0x72 else { return unknown(bytes, count: 3) }
        let letter = Character(Unicode.Scalar(bytes[at: 3]))
        switch letter {
        case "R":
            log("ESC * r R"); formFeedMode = Self.initialEndMode; endMode = Self.initialEndMode; return 4
        case "A":
            log("ESC * r A")
            if !inRaster { inRaster = true; formFeedMode = Self.initialEndMode; endMode = Self.initialEndMode }
            return 4
        case "B":
            log("ESC * r B")
            guard inRaster else { problem("ESC * r B outside raster mode"); return 4 }
            if rowsSinceFormFeed { endPage(mode: endMode, command: "ESC * r B (EOT mode)") }
            inRaster = false
            return 4
        case "C":
            log("ESC * r C"); return 4
        case "m":  // ESC * r m l n NUL, ESC * r m r n NUL: margins, none used here
            guard let (value, used) = number(bytes, from: 5) else { return nil }
            log("ESC * r m \(Character(Unicode.Scalar(bytes[at: 4]))) \(value)")
            if value != 0 { problem("a margin of \(value) x 8 dots: the simulator prints from the left edge") }
            return used
        case "Q", "P", "E", "F", "D", "Y", "T", "K":
            guard let (value, used) = number(bytes, from: 4) else { return nil }
            log("ESC * r \(letter) \(value)")
            guard inRaster || letter == "Q" || letter == "P" else { problem("ESC * r \(letter) outside raster mode"); return used }
            switch letter {
            case "E": endMode = value
            case "F": formFeedMode = value
            case "D":
                if value & 1 != 0 { drive(device: 1, command: "ESC * r D \(value)") }
                if value & 2 != 0 { drive(device: 2, command: "ESC * r D \(value)") }
            case "Y":
                if executes("ESC * r Y \(value)") { record.uncut.bitmap.appendBlankRows(value); rowsSinceFormFeed = true }
            default: break
            }
            return used
        default:
            problem("ESC * r \(letter) is not a raster command this printer knows")
            return unknown(bytes, count: 4)
        }
    }

    /// The ASCII decimal number from `offset` up to its NUL, and the command's whole length.
    private func number(_ bytes: ArraySlice<UInt8>, from offset: Int) -> (Int, Int)? {
        var value = 0
        var index = offset
        while index < bytes.count {
            let byte = bytes[at: index]
            if byte == 0 { return (value, index + 1) }
            if (0x30...0x39).contains(byte), value < 1_000_000 { value = value * 10 + Int(byte - 0x30) }
            index += 1
        }
        return nil
    }

    /// `b n1 n2 d...` (a row, then the next) or `k n1 n2 d...` (a row printed over the same line).
    private mutating func rasterRow(_ bytes: ArraySlice<UInt8>) -> Int? {
        guard bytes.count >= 3 else { return nil }
        let count = bytes.littleEndian(at: 1, count: 2)
        guard bytes.count >= 3 + count else { return nil }
        let data = bytes.dropFirst(3).prefix(count)
        let command = bytes[at: 0] == 0x62 ? "b" : "k"
        guard executes("\(command) \(count)") else { return 3 + count }
        if count * 8 > configuration.printableWidth + 7 {
            problem("\(command) \(count): \(count * 8) dots are wider than the printable \(configuration.printableWidth); the rest is dropped")
        }
        if command == "b" { record.uncut.bitmap.appendRow(data.prefix(record.uncut.bitmap.bytesPerRow)) }
        else { problem("k (print without a line feed) is not simulated") }
        rowsSinceFormFeed = true
        return 3 + count
    }

    /// What an FF or EOT mode does at the end of a page: print, and feed and cut as the mode says.
    private mutating func endPage(mode: Int, command: String) {
        log("\(command) (mode \(mode))")
        rowsSinceFormFeed = false
        guard executes(command) else { return }
        switch mode {
        case 1, 2: break  // print only; 2 feeds to the cutter and does not cut
        case 3: finishPiece(StarCut(kind: .tearBar, command: "\(command) (mode 3)"))
        case 8, 9, 36, 37: finishPiece(StarCut(kind: .full, command: "\(command) (mode \(mode))"))
        case 12, 13: finishPiece(StarCut(kind: .partial, command: "\(command) (mode \(mode))"))
        default: problem("\(command): mode \(mode) is not one Star's table lists (1, 2, 3, 8, 9, 12, 13, 36, 37)")
        }
    }

    // MARK: Line mode and StarPRNT

    /// `ESC d n`: 0 full and 1 partial where the paper is; 2 full and 3 partial after feeding to the cutter.
    private mutating func cut(_ n: UInt8) {
        log("ESC d \(n)")
        guard executes("ESC d \(n)") else { return }
        switch n {
        case 0, 0x30, 2, 0x32: finishPiece(StarCut(kind: .full, command: "ESC d \(n)"))
        case 1, 0x31, 3, 0x33: finishPiece(StarCut(kind: .partial, command: "ESC d \(n)"))
        default: problem("ESC d \(n) is no cut (0 to 3)")
        }
    }

    /// `ESC GS S m xL xH yL yH n d...`: x bytes by y rows, monochrome when m = 1 and n = 0.
    private mutating func rasterBlock(_ bytes: ArraySlice<UInt8>) -> Int? {
        guard bytes.count >= 9 else { return nil }
        let x = bytes.littleEndian(at: 4, count: 2), y = bytes.littleEndian(at: 6, count: 2)
        let total = 9 + x * y
        guard bytes.count >= total else { return nil }
        let m = bytes[at: 3], n = bytes[at: 8]
        log("ESC GS S \(m) \(x) \(y) \(n)")
        guard executes("ESC GS S (\(y) rows)") else { return total }
        if m != 1 || n != 0 { problem("ESC GS S with m \(m) and n \(n): only one monochrome block (m 1, n 0) is simulated") }
        if x * 8 > configuration.printableWidth + 7 {
            problem("ESC GS S: \(x * 8) dots are wider than the printable \(configuration.printableWidth); the rest is dropped")
        }
        let data = bytes.dropFirst(9)
        let kept = min(x, record.uncut.bitmap.bytesPerRow)
        for row in 0..<y {
            let start = data.startIndex + row * x
            record.uncut.bitmap.appendRow(data[start..<(start + kept)])
        }
        return total
    }

    // MARK: Shared

    private mutating func drive(device: Int, command: String) {
        log(command)
        let timing = device == 1 ? pulse : (200, 200)
        record.drawerPulses.append(DrawerPulse(pin: device == 1 ? 2 : 5, onMilliseconds: timing.0, offMilliseconds: timing.1,
                                               realTime: false))
    }

    private mutating func finishPiece(_ cut: StarCut) {
        var piece = record.uncut
        piece.cut = cut
        record.pieces.append(piece)
        record.uncut = StarPiece(bitmap: DotBitmap(width: configuration.printableWidth), cut: nil)
    }

    /// Whether a printing command runs now: a stopped printer notes what it skipped.
    private mutating func executes(_ command: String) -> Bool {
        guard state.canPrint else { record.notExecuted.append(command); return false }
        return true
    }

    private mutating func log(_ command: String) { record.commands.append(command) }
    private mutating func problem(_ text: String) { record.problems.append(text) }

    private mutating func unknown(_ bytes: ArraySlice<UInt8>, count: Int) -> Int {
        record.unknownCommands.append(Array(bytes.prefix(count)))
        return min(count, bytes.count)
    }
}
