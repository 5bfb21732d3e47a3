/// The ZPL II interpreter behind the simulated label printers: fed bytes,
/// it collects `^XA ... ^XZ` formats into labels (graphic fields drawn at
/// their places, the media settings in force), and answers `~HS` from the
/// state a test sets, as the ZPL II Programming Guide describes.
///
/// Written from the guide, not from KioskPrint's encoder.
struct ZPLEngine: RawPrinterEngine {
    let configuration: ZPLPrinterSimulator.Configuration
    private(set) var state = ZPLPrinterState.ready
    var record = ZPLRecord()

    /// Received bytes not interpreted yet.
    private var pending: [UInt8] = []
    /// Settings that last from format to format until changed.
    private var width: Int
    private var length: Int
    private var tracking = ZPLMediaTracking.gap
    private var mode = ZPLMediaMode.tearOff
    private var labelHome = (x: 0, y: 0)
    /// The format being received, between ^XA and ^XZ.
    private var format: Format?

    private struct Format {
        var origin = (x: 0, y: 0)
        var copies = 1
        var graphics: [(image: DotBitmap, x: Int, y: Int)] = []
        var fields: [ZPLField] = []
    }

    init(configuration: ZPLPrinterSimulator.Configuration) {
        self.configuration = configuration
        width = configuration.printWidth
        length = configuration.labelLength
    }

    mutating func receive(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        pending += bytes
        var answers: [UInt8] = []
        var offset = 0
        while offset < pending.count, let used = interpret(at: offset, atEnd: false, answers: &answers) {
            offset += used
        }
        pending.removeFirst(offset)
        return answers
    }

    mutating func connectionEnded() {
        // A command at the very end has no following prefix to end it: the end of the data does.
        var answers: [UInt8] = []
        var offset = 0
        while offset < pending.count, let used = interpret(at: offset, atEnd: true, answers: &answers) {
            offset += used
        }
        if offset < pending.count {
            record.problems.append("the connection ended inside a command (\(pending.count - offset) bytes); dropped")
        }
        pending.removeAll()
    }

    /// Sets the sensors; labels that waited print once the printer can print.
    mutating func setState(_ new: ZPLPrinterState) -> [UInt8] {
        state = new
        if state.canPrint {
            record.labels += record.waitingLabels
            record.waitingLabels.removeAll()
        }
        return []
    }

    // MARK: Parsing

    private static let caret = UInt8(ascii: "^"), tilde = UInt8(ascii: "~")
    /// Commands without parameters, taken as soon as their name has arrived.
    private static let bare: Set<String> = ["XA", "XZ", "FS", "HS", "JA", "PS", "PP", "HM", "HI"]

    /// Interprets what starts at `start`; returns the bytes taken, or nil when
    /// the command may not have fully arrived (unless `atEnd`).
    private mutating func interpret(at start: Int, atEnd: Bool, answers: inout [UInt8]) -> Int? {
        let first = pending[start]
        guard first == Self.caret || first == Self.tilde else {
            // Text between commands: line ends and spaces are normal, anything else is noted.
            var end = start
            while end < pending.count, pending[end] != Self.caret, pending[end] != Self.tilde { end += 1 }
            let stray = pending[start..<end].filter { ![0x0D, 0x0A, 0x20, 0x09].contains($0) }
            if !stray.isEmpty {
                record.problems.append("text outside any command: \"\(String(decoding: stray.prefix(40), as: UTF8.self))\"")
            }
            return end - start
        }
        guard pending.count - start >= 3 else { return atEnd ? pending.count - start : nil }
        let name = String(decoding: pending[(start + 1)..<(start + 3)], as: UTF8.self).uppercased()
        let prefix = first == Self.caret ? "^" : "~"
        if Self.bare.contains(name) {
            execute(prefix + name, parameters: [], answers: &answers)
            return 3
        }
        if prefix == "^", name == "GF" { return graphicField(at: start, atEnd: atEnd) }
        // Parameters run to the next command prefix.
        var end = start + 3
        while end < pending.count, pending[end] != Self.caret, pending[end] != Self.tilde { end += 1 }
        guard end < pending.count || atEnd else { return nil }
        execute(prefix + name, parameters: pending[(start + 3)..<end], answers: &answers)
        return end - start
    }

    /// `^GFa,b,c,d,data`: binary data (`B`) is exactly b bytes, whatever they
    /// hold; other data runs to the next command prefix.
    private mutating func graphicField(at start: Int, atEnd: Bool) -> Int? {
        var commas: [Int] = []
        var index = start + 3
        while index < pending.count, commas.count < 4 {
            if pending[index] == UInt8(ascii: ",") { commas.append(index) }
            if pending[index] == Self.caret || pending[index] == Self.tilde { break }
            index += 1
        }
        guard commas.count == 4 else {
            guard atEnd || index < pending.count else { return nil }
            record.problems.append("^GF without its four parameters (a,b,c,d); ignored")
            return index - start
        }
        let header = String(decoding: pending[(start + 3)..<commas[3]], as: UTF8.self)
            .split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        let type = header[0].isEmpty ? "A" : header[0].uppercased()
        let binaryCount = Int(header[1]) ?? 0, fieldCount = Int(header[2]) ?? 0, bytesPerRow = Int(header[3]) ?? 0
        let dataStart = commas[3] + 1
        var end: Int
        if type == "B" {
            end = dataStart + binaryCount
            if end > pending.count {
                guard atEnd else { return nil }
                record.problems.append("^GFB announced \(binaryCount) bytes; the connection ended after "
                                       + "\(pending.count - dataStart)")
                end = pending.count
            }
        } else {
            end = dataStart
            while end < pending.count, pending[end] != Self.caret, pending[end] != Self.tilde { end += 1 }
            guard end < pending.count || atEnd else { return nil }
        }
        record.commands.append("^GF")
        let field = ZPLGraphicField(type: type, fieldCount: fieldCount, bytesPerRow: bytesPerRow,
                                    data: pending[dataStart..<end])
        record.problems += field.problems
        let home = labelHome
        inFormat("^GF") { $0.graphics.append((field.bitmap, home.x + $0.origin.x, home.y + $0.origin.y)) }
        return end - start
    }

    // MARK: Commands

    private mutating func execute(_ command: String, parameters: ArraySlice<UInt8>, answers: inout [UInt8]) {
        let text = String(decoding: parameters, as: UTF8.self)
        let values = text.split(separator: ",", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        func number(_ index: Int) -> Int? { index < values.count ? Int(values[index]) : nil }
        record.commands.append(command)

        switch command {
        case "^XA":
            if format != nil { record.problems.append("^XA inside a format: the unfinished format was dropped") }
            format = Format()
        case "^XZ":
            finishFormat()
        case "~HS":
            record.hostStatusRequests += 1
            guard state.canPrint || configuration.answersHostStatusWhenFaulted else { return }
            let answer = hostStatus()
            record.hostStatusAnswers.append(answer)
            answers += Array(answer.utf8)
        case "~PP":  // pause, as the panel's key does
            state.paused = true
        case "~PS":  // end the pause: waiting labels print (if nothing else stops them)
            _ = setState(ZPLPrinterState(paperOut: state.paperOut, paused: false, headUp: state.headUp))
        case "~JA":  // cancel all: formats waiting in the buffer are thrown away
            record.waitingLabels.removeAll()
        case "^PW":
            if let dots = number(0) { width = max(2, dots) }
        case "^LL":
            if let dots = number(0) { length = max(1, dots) }
        case "^MN":
            if let code = values.first?.uppercased(), !code.isEmpty { tracking = ZPLMediaTracking(code: code) }
        case "^MM":
            if let code = values.first?.uppercased(), !code.isEmpty { mode = ZPLMediaMode(code: code) }
        case "^LH":
            labelHome = (number(0) ?? labelHome.x, number(1) ?? labelHome.y)
        case "^FO":
            inFormat(command) { $0.origin = (number(0) ?? 0, number(1) ?? 0) }
        case "^FD":
            let home = labelHome
            inFormat(command) { format in
                format.fields.append(ZPLField(x: home.x + format.origin.x, y: home.y + format.origin.y, data: text))
            }
        case "^FS":
            inFormat(command) { $0.origin = (0, 0) }
        case "^PQ":
            inFormat(command) { $0.copies = max(1, number(0) ?? 1) }
        default:
            record.ignoredCommands.append(command + text)
        }
    }

    private mutating func inFormat(_ command: String, _ change: (inout Format) -> Void) {
        guard format != nil else {
            record.problems.append("\(command) outside a format (^XA ... ^XZ); ignored")
            return
        }
        var changed = format!
        change(&changed)
        format = changed
    }

    private mutating func finishFormat() {
        guard let finished = format else {
            record.problems.append("^XZ without ^XA; ignored")
            return
        }
        format = nil
        var bitmap = DotBitmap(width: width, height: length)
        for graphic in finished.graphics {
            if graphic.x + graphic.image.width > width || graphic.y + graphic.image.height > length {
                record.problems.append("a graphic field of \(graphic.image.width)x\(graphic.image.height) dots at "
                                       + "\(graphic.x),\(graphic.y) runs off the \(width)x\(length) label; cut off")
            }
            bitmap.draw(graphic.image, atX: graphic.x, y: graphic.y)
        }
        let label = ZPLLabel(width: width, length: length, mediaTracking: tracking, mediaMode: mode,
                             copies: finished.copies, bitmap: bitmap, fields: finished.fields)
        if state.canPrint { record.labels.append(label) } else { record.waitingLabels.append(label) }
    }

    /// The three `~HS` strings (ZPL II Programming Guide, ~HS), each
    /// `<STX>...<ETX><CR><LF>`. Fields the simulator has no sensor for are
    /// reported as a Zebra with nothing wrong reports them.
    private func hostStatus() -> String {
        func digits(_ value: Int, _ count: Int) -> String {
            let text = String(min(max(0, value), Int(String(repeating: "9", count: count)) ?? 0))
            return String(repeating: "0", count: max(0, count - text.count)) + text
        }
        func flag(_ value: Bool) -> String { value ? "1" : "0" }
        // String 1: communication settings, paper out, pause, label length, formats in the buffer,
        // buffer full, diagnostic mode, partial format, unused, corrupt RAM, under and over temperature.
        let first = ["030", flag(state.paperOut), flag(state.paused), digits(length, 4),
                     digits(record.waitingLabels.count, 3), "0", "0", flag(format != nil), "000", "0", "0", "0"]
        // String 2: function settings, unused, head up, ribbon out, thermal transfer, print mode,
        // print width mode, label waiting, labels remaining, format while printing, graphics stored.
        let second = ["001", "0", flag(state.headUp), "0", "0", String(mode.hostStatusDigit), "6", "0",
                      "00000000", "1", "000"]
        // String 3: password, static RAM installed.
        let third = ["1234", "0"]
        return [first, second, third].map { "\u{02}" + $0.joined(separator: ",") + "\u{03}\r\n" }.joined()
    }
}
