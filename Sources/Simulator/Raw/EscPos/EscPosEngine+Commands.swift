// The command prefixes DLE, ESC, GS and FS. Byte values and lengths are from
// Epson's ESC/POS Application Programming Guide and its online command
// reference (download4.epson.biz/sec_pubs/pos/reference_en/escpos/).
// Each function gets the pending bytes from the prefix on and returns how
// many the command took, or nil when it has not fully arrived.

extension EscPosEngine {
    mutating func interpretDLE(_ bytes: ArraySlice<UInt8>, answers: inout [UInt8]) -> Int? {
        guard bytes.count >= 2 else { return nil }
        switch bytes[at: 1] {
        case 0x04:  // DLE EOT n: real-time status, one byte, answered at once, also when stopped
            guard bytes.count >= 3 else { return nil }
            let n = bytes[at: 2]
            let answer = state.realTimeStatus(n)
            log("DLE EOT \(n)")
            record.statusQueries.append(EscPosStatusQuery(command: "DLE EOT \(n)", answer: answer))
            if let answer { answers.append(answer) }
            return 3
        case 0x05:  // DLE ENQ n: real-time request to recover; nothing to recover from here
            guard bytes.count >= 3 else { return nil }
            ignore("DLE ENQ \(bytes[at: 2])")
            return 3
        case 0x14:  // DLE DC4 fn ...: real-time pulse (fn 1) and other real-time functions
            guard bytes.count >= 3 else { return nil }
            switch bytes[at: 2] {
            case 1:  // DLE DC4 1 m t: pulse on pin m, on and off t x 100 ms
                guard bytes.count >= 5 else { return nil }
                let m = bytes[at: 3], t = Int(bytes[at: 4])
                log("DLE DC4 1 \(m) \(t)")
                record.drawerPulses.append(DrawerPulse(pin: m == 0 ? 2 : 5, onMilliseconds: t * 100,
                                                       offMilliseconds: t * 100, realTime: true))
                return 5
            case 2:  // DLE DC4 2 1 8: power off
                guard bytes.count >= 5 else { return nil }
                ignore("DLE DC4 2")
                return 5
            case 7:  // DLE DC4 7 m: buzzer
                guard bytes.count >= 4 else { return nil }
                ignore("DLE DC4 7")
                return 4
            case 8:  // DLE DC4 8 d1..d7: clear buffers
                guard bytes.count >= 10 else { return nil }
                ignore("DLE DC4 8")
                return 10
            default:
                return unknown(bytes, count: 3)
            }
        default:
            return unknown(bytes, count: 1)
        }
    }

    mutating func interpretESC(_ bytes: ArraySlice<UInt8>) -> Int? {
        guard bytes.count >= 2 else { return nil }
        let command = bytes[at: 1]
        switch command {
        case 0x40:  // ESC @: initialize
            log("ESC @")
            initialize()
            return 2
        case 0x4A:  // ESC J n: print and feed n vertical motion units
            guard bytes.count >= 3 else { return nil }
            let n = Int(bytes[at: 2])
            log("ESC J \(n)")
            printLine(thenFeed: dots(fromUnits: n), command: "ESC J \(n)")
            return 3
        case 0x64:  // ESC d n: print and feed n lines
            guard bytes.count >= 3 else { return nil }
            let n = Int(bytes[at: 2])
            log("ESC d \(n)")
            printLine(thenFeed: n * lineSpacing, command: "ESC d \(n)")
            return 3
        case 0x32:  // ESC 2: default line spacing, 1/6 inch
            log("ESC 2")
            lineSpacing = configuration.dotsPerInch / 6
            return 2
        case 0x33:  // ESC 3 n: line spacing n vertical motion units
            guard bytes.count >= 3 else { return nil }
            log("ESC 3 \(bytes[at: 2])")
            lineSpacing = dots(fromUnits: Int(bytes[at: 2]))
            return 3
        case 0x24:  // ESC $ nL nH: absolute print position in horizontal motion units
            guard bytes.count >= 4 else { return nil }
            let units = bytes.littleEndian(at: 2, count: 2)
            log("ESC $ \(units)")
            let position = units * configuration.dotsPerInch / max(1, horizontalUnitsPerInch)
            // Past the printable area the command is ignored, as the reference says.
            if position < configuration.printableWidth { printPosition = position }
            return 4
        case 0x45:  // ESC E n: emphasized on (bit 0 set) or off
            guard bytes.count >= 3 else { return nil }
            log("ESC E \(bytes[at: 2])")
            bold = bytes[at: 2] & 1 == 1
            return 3
        case 0x74:  // ESC t n: character code table
            guard bytes.count >= 3 else { return nil }
            log("ESC t \(bytes[at: 2])")
            codePage = bytes[at: 2]
            return 3
        case 0x70:  // ESC p m t1 t2: pulse, on t1 x 2 ms, off t2 x 2 ms (t1 x 2 ms when t2 < t1)
            guard bytes.count >= 5 else { return nil }
            let m = bytes[at: 2], t1 = Int(bytes[at: 3]), t2 = Int(bytes[at: 4])
            guard [0, 1, 48, 49].contains(m) else { return unknown(bytes, count: 3) }  // out of range: not a command
            log("ESC p \(m) \(t1) \(t2)")
            guard executes("ESC p \(m) \(t1) \(t2)") else { return 5 }
            record.drawerPulses.append(DrawerPulse(pin: m % 48 == 0 ? 2 : 5, onMilliseconds: t1 * 2,
                                                   offMilliseconds: max(t1, t2) * 2, realTime: false))
            return 5
        case 0x44:  // ESC D n1 ... NUL: tab positions
            guard let end = bytes.dropFirst(2).firstIndex(of: 0) else { return bytes.count > 34 ? unknown(bytes, count: 2) : nil }
            ignore("ESC D")
            return end - bytes.startIndex + 1
        case 0x2A:  // ESC * m nL nH d1..dk: column bit image
            guard bytes.count >= 5 else { return nil }
            let columns = bytes.littleEndian(at: 3, count: 2)
            let length = 5 + columns * (bytes[at: 2] >= 32 ? 3 : 1)
            guard bytes.count >= length else { return nil }
            ignore("ESC * \(bytes[at: 2])")
            return length
        case 0x28:  // ESC ( X pL pH ...: functions with a length (ESC ( A 48: beep the buzzer)
            guard bytes.count >= 5 else { return nil }
            let length = 5 + bytes.littleEndian(at: 3, count: 2)
            guard bytes.count >= length else { return nil }
            if bytes[at: 2] == 0x41, length == 9, bytes[at: 5] == 48 {
                log("ESC ( A 48 \(bytes[at: 6]) \(bytes[at: 7]) \(bytes[at: 8])")
                record.beeps.append(Beep(pattern: Int(bytes[at: 6]), count: Int(bytes[at: 7]), cycleMilliseconds: Int(bytes[at: 8]) * 100))
            } else {
                ignore(name("ESC", bytes.prefix(3)))
            }
            return length
        case 0x63:  // ESC c 3 n, ESC c 4 n, ESC c 5 n: paper sensors, panel buttons
            guard bytes.count >= 4 else { return nil }
            ignore("ESC c \(Character(Unicode.Scalar(bytes[at: 2]))) \(bytes[at: 3])")
            return 4
        default:
            // Settings with fixed lengths that change nothing on the paper model.
            let lengths: [UInt8: Int] = [
                0x20: 3, 0x21: 3, 0x25: 3, 0x2D: 3, 0x3D: 3, 0x47: 3, 0x4D: 3, 0x52: 3,
                0x54: 3, 0x55: 3, 0x56: 3, 0x5C: 4, 0x61: 3, 0x72: 3, 0x7B: 3,
                0x4C: 2, 0x53: 2, 0x69: 2, 0x6D: 2,  // ESC i / ESC m: old cuts, not what GS V does
            ]
            guard let length = lengths[command] else { return unknown(bytes, count: 2) }
            guard bytes.count >= length else { return nil }
            ignore(name("ESC", bytes.prefix(length)))
            return length
        }
    }

    mutating func interpretGS(_ bytes: ArraySlice<UInt8>, answers: inout [UInt8]) -> Int? {
        guard bytes.count >= 2 else { return nil }
        let command = bytes[at: 1]
        switch command {
        case 0x76:  // GS v 0 m xL xH yL yH d1..dk: raster bit image
            guard bytes.count >= 3 else { return nil }
            guard bytes[at: 2] == 0x30 else { return unknown(bytes, count: 3) }
            return rasterBitImage(bytes)
        case 0x28:  // GS ( X pL pH ...: functions with a length
            guard bytes.count >= 5 else { return nil }
            let length = 5 + bytes.littleEndian(at: 3, count: 2)
            guard bytes.count >= length else { return nil }
            let parameters = bytes[(bytes.startIndex + 5)..<(bytes.startIndex + length)]
            switch bytes[at: 2] {
            case 0x4C: graphics(parameters, command: "GS ( L")
            case 0x48: response(parameters, answers: &answers)
            default: ignore("GS ( \(Character(Unicode.Scalar(bytes[at: 2])))")
            }
            return length
        case 0x38:  // GS 8 L p1 p2 p3 p4 ...: GS ( L with a four-byte length
            guard bytes.count >= 7 else { return nil }
            guard bytes[at: 2] == 0x4C else { return unknown(bytes, count: 3) }
            let length = 7 + bytes.littleEndian(at: 3, count: 4)
            guard bytes.count >= length else { return nil }
            graphics(bytes[(bytes.startIndex + 7)..<(bytes.startIndex + length)], command: "GS 8 L")
            return length
        case 0x56:  // GS V m [n]: cut
            guard bytes.count >= 3 else { return nil }
            let m = bytes[at: 2]
            switch m {
            case 0, 48, 1, 49:
                log("GS V \(m)")
                cut(EscPosCut(kind: m % 48 == 0 ? .full : .partial, mode: m, fedToCutPosition: false, extraFeedDots: 0))
                return 3
            case 65, 66, 97, 98, 103, 104:
                guard bytes.count >= 4 else { return nil }
                let n = Int(bytes[at: 3])
                log("GS V \(m) \(n)")
                cut(EscPosCut(kind: m % 2 == 1 ? .full : .partial, mode: m, fedToCutPosition: true,
                              extraFeedDots: dots(fromUnits: n)))
                return 4
            default:
                return unknown(bytes, count: 3)
            }
        case 0x61:  // GS a n: Automatic Status Back; enabling sends the status at once
            guard bytes.count >= 3 else { return nil }
            let n = bytes[at: 2]
            log("GS a \(n)")
            record.automaticStatusSettings.append(n)
            automaticStatusMask = n & 0x0F
            if automaticStatusMask != 0 { answers += state.automaticStatus }
            return 3
        case 0x72:  // GS r n: transmit status
            guard bytes.count >= 3 else { return nil }
            let n = bytes[at: 2]
            let answer = state.transmittedStatus(n)
            log("GS r \(n)")
            record.statusQueries.append(EscPosStatusQuery(command: "GS r \(n)", answer: answer))
            if let answer { answers.append(answer) }
            return 3
        case 0x50:  // GS P x y: motion units 1/x and 1/y inch; 0 restores the default
            guard bytes.count >= 4 else { return nil }
            let x = Int(bytes[at: 2]), y = Int(bytes[at: 3])
            log("GS P \(x) \(y)")
            horizontalUnitsPerInch = x == 0 ? configuration.verticalMotionUnitsPerInch : x
            verticalUnitsPerInch = y == 0 ? configuration.verticalMotionUnitsPerInch : y
            return 4
        case 0x4C:  // GS L nL nH: left margin in horizontal motion units, taken at the beginning of a line
            guard bytes.count >= 4 else { return nil }
            let units = bytes.littleEndian(at: 2, count: 2)
            log("GS L \(units)")
            guard lineRuns.isEmpty else {
                record.problems.append("GS L came with text waiting in the line buffer; it is taken only at the beginning of a line")
                return 4
            }
            leftMargin = min(configuration.printableWidth, units * configuration.dotsPerInch / max(1, horizontalUnitsPerInch))
            return 4
        case 0x21:  // GS ! n: character size, width (bits 4-6) and height (bits 0-2) magnification - 1
            guard bytes.count >= 3 else { return nil }
            let n = bytes[at: 2]
            log("GS ! \(n)")
            widthScale = Int(n >> 4 & 7) + 1
            heightScale = Int(n & 7) + 1
            return 3
        case 0x6B:  // GS k m ...: barcode; m 0-6 data ends with NUL, m 65-79 has a count n
            guard bytes.count >= 3 else { return nil }
            if bytes[at: 2] <= 6 {
                guard let end = bytes.dropFirst(3).firstIndex(of: 0) else { return nil }
                ignore("GS k \(bytes[at: 2])")
                return end - bytes.startIndex + 1
            }
            guard bytes.count >= 4 else { return nil }
            let length = 4 + Int(bytes[at: 3])
            guard bytes.count >= length else { return nil }
            ignore("GS k \(bytes[at: 2])")
            return length
        case 0x2A:  // GS * x y d1..d(x*y*8): define downloaded bit image
            guard bytes.count >= 4 else { return nil }
            let length = 4 + Int(bytes[at: 2]) * Int(bytes[at: 3]) * 8
            guard bytes.count >= length else { return nil }
            ignore("GS *")
            return length
        default:
            let lengths: [UInt8: Int] = [
                0x24: 4, 0x2F: 3, 0x3A: 2, 0x42: 3, 0x48: 3, 0x49: 3, 0x54: 3, 0x57: 4,
                0x5C: 4, 0x5E: 5, 0x62: 3, 0x66: 3, 0x68: 3, 0x77: 3,
            ]
            guard let length = lengths[command] else { return unknown(bytes, count: 2) }
            guard bytes.count >= length else { return nil }
            ignore(name("GS", bytes.prefix(length)))
            return length
        }
    }

    mutating func interpretFS(_ bytes: ArraySlice<UInt8>) -> Int? {
        guard bytes.count >= 2 else { return nil }
        switch bytes[at: 1] {
        case 0x28:  // FS ( X pL pH ...
            guard bytes.count >= 5 else { return nil }
            let length = 5 + bytes.littleEndian(at: 3, count: 2)
            guard bytes.count >= length else { return nil }
            ignore("FS ( \(Character(Unicode.Scalar(bytes[at: 2]))))")
            return length
        case 0x70:  // FS p n m: print NV bit image
            guard bytes.count >= 4 else { return nil }
            ignore("FS p \(bytes[at: 2]) \(bytes[at: 3])")
            return 4
        case 0x2E, 0x26:  // FS . and FS &: kanji mode off/on
            ignore(name("FS", bytes.prefix(2)))
            return 2
        case 0x21, 0x2D, 0x43, 0x57:
            guard bytes.count >= 3 else { return nil }
            ignore(name("FS", bytes.prefix(3)))
            return 3
        default:
            return unknown(bytes, count: 2)
        }
    }

    /// ESC @: the line buffer and stored graphics are cleared and the
    /// settings return to their defaults; the paper stays where it is.
    private mutating func initialize() {
        record.initializations += 1
        lineRuns.removeAll()
        printPosition = 0
        leftMargin = 0
        codePage = 0
        bold = false
        widthScale = 1
        heightScale = 1
        storedGraphic = nil
        lineSpacing = configuration.dotsPerInch / 6
        verticalUnitsPerInch = configuration.verticalMotionUnitsPerInch
        horizontalUnitsPerInch = configuration.verticalMotionUnitsPerInch
    }

    /// "ESC a 1": the prefix, the command letter and the numeric parameters.
    private func name(_ prefix: String, _ bytes: ArraySlice<UInt8>) -> String {
        let letter = Character(Unicode.Scalar(bytes[at: 1]))
        return ([prefix, String(letter)] + bytes.dropFirst(2).map { String($0) }).joined(separator: " ")
    }
}
