/// What a host asks an ESC/POS printer in the middle of its print data: the
/// commands a printer answers rather than prints. A virtual printer answers
/// them itself and keeps them out of the job, so the real printer never
/// answers them a second time, into a connection nobody reads.
public enum EscPosHostAsk: Hashable, Sendable {
    /// `DLE EOT n` (10 04 n), "Transmit real-time status": one byte, at once.
    case realTimeStatus(UInt8)
    /// `GS r n` (1D 72 n), "Transmit status": n = 1/49 paper sensors, 2/50 the drawer.
    case transmitStatus(UInt8)
    /// `ESC v` (1B 76), "Transmit paper sensor status" (older models; LPrint's driver asks it).
    case paperSensorStatus
    /// `ESC u n` (1B 75 n), "Transmit peripheral device status": the drawer pin.
    case peripheralStatus
    /// `GS a n` (1D 61 n), "Enable/disable Automatic Status Back": a non-zero
    /// n is answered at once with the four ASB bytes.
    case automaticStatus(UInt8)
    /// `GS I n` (1D 49 n), "Transmit printer ID".
    case printerID(UInt8)
    /// `GS ( H` fn 48 (1D 28 48 06 00 30 30 d1..d4), "Request transmission of
    /// response": answered `37 22 d1..d4 00` once what came before is printed,
    /// here once it is safely queued.
    case processID([UInt8])
    /// `DLE ENQ n` (10 05 n), "Send real-time request to printer": nothing to recover from.
    case recoveryRequest(UInt8)
}

/// A piece of a host's stream to a printer, in order: print data, or one of
/// the language's asks.
public enum HostPiece<Ask: Hashable & Sendable>: Hashable, Sendable {
    case data([UInt8])
    case ask(Ask)
}

/// A piece of a host's ESC/POS stream.
public typealias EscPosHostPiece = HostPiece<EscPosHostAsk>

/// Splits the ESC/POS a host sends into print data and asks, command by
/// command, so that a byte pair such as `10 04` inside a raster image's data
/// is never taken for a status request. Commands are framed by the lengths
/// of Epson's "ESC/POS Command Reference for TM Printers"
/// (download4.epson.biz/sec_pubs/pos/reference_en/escpos/): fixed-length
/// settings, `GS v 0`, `ESC *`, `GS ( X`/`ESC ( X`/`FS ( X` with pL pH,
/// `GS 8 L` with p1..p4, `GS k` and `ESC D` with their ends. A command the
/// table does not know is taken as its two first bytes, as a printer skips it.
/// Everything that is not an ask passes through unchanged.
public struct EscPosHostStream: Sendable {
    private var pending: [UInt8] = []

    /// A stream that has seen nothing yet.
    public init() {}

    /// Bytes held back: a command that has not fully arrived.
    public var heldBytes: Int { pending.count }

    /// The pieces `bytes` completes (after what was held back), print data merged.
    public mutating func feed(_ bytes: some Collection<UInt8>) -> [EscPosHostPiece] {
        pending.append(contentsOf: bytes)
        var pieces: [EscPosHostPiece] = []
        var dataStart = 0, offset = 0
        while offset < pending.count {
            guard let (length, ask) = Self.frame(pending[offset...]) else { break }
            if let ask {
                if dataStart < offset { pieces.append(.data(Array(pending[dataStart..<offset]))) }
                pieces.append(.ask(ask))
                dataStart = offset + length
            }
            offset += length
        }
        if dataStart < offset { pieces.append(.data(Array(pending[dataStart..<offset]))) }
        pending.removeFirst(offset)
        return pieces
    }

    /// At the end of the stream: a command that never finished, as data (the printer will judge it).
    public mutating func finish() -> [UInt8] {
        defer { pending.removeAll() }
        return pending
    }

    /// The length of the command at the start of `bytes`, and the ask it is;
    /// nil when it has not fully arrived.
    static func frame(_ bytes: ArraySlice<UInt8>) -> (Int, EscPosHostAsk?)? {
        let first = bytes[bytes.startIndex]
        func at(_ offset: Int) -> UInt8? { bytes.count > offset ? bytes[bytes.startIndex + offset] : nil }
        func need(_ length: Int, _ ask: EscPosHostAsk? = nil) -> (Int, EscPosHostAsk?)? { bytes.count >= length ? (length, ask) : nil }
        func littleEndian(_ offset: Int, _ count: Int) -> Int? {
            guard bytes.count >= offset + count else { return nil }
            return (0..<count).reduce(0) { $0 | Int(bytes[bytes.startIndex + offset + $1]) << (8 * $1) }
        }
        switch first {
        case 0x20...:
            var end = bytes.startIndex
            while end < bytes.endIndex, bytes[end] >= 0x20 { end += 1 }
            return (end - bytes.startIndex, nil)
        case 0x10:  // DLE
            guard let command = at(1), let n = at(2) else { return nil }
            switch command {
            case 0x04: return n == 7 || n == 8 ? need(4) : (3, .realTimeStatus(n))
            case 0x05: return (3, .recoveryRequest(n))
            case 0x14:
                switch n {
                case 1, 2: return need(5)
                case 7: return need(4)
                case 8: return need(10)
                default: return (3, nil)
                }
            default: return (1, nil)
            }
        case 0x1B:  // ESC
            guard let command = at(1) else { return nil }
            switch command {
            case 0x76: return (2, .paperSensorStatus)
            case 0x75: return need(3, .peripheralStatus)
            case 0x2A:  // ESC * m nL nH: column bit image, 1 or 3 bytes a column
                guard let m = at(2), let columns = littleEndian(3, 2) else { return nil }
                return need(5 + columns * (m >= 32 ? 3 : 1))
            case 0x28:  // ESC ( X pL pH ...
                guard let length = littleEndian(3, 2) else { return nil }
                return need(5 + length)
            case 0x44:  // ESC D n1 ... NUL (at most 32 tab stops)
                guard let end = bytes.dropFirst(2).prefix(33).firstIndex(of: 0) else { return bytes.count > 35 ? (2, nil) : nil }
                return (end - bytes.startIndex + 1, nil)
            case 0x40, 0x32, 0x3C, 0x0C, 0x4C, 0x53, 0x69, 0x6D, 0x46: return (2, nil)
            case 0x24, 0x5C, 0x63: return need(4)
            case 0x70: return need(5)
            default: return need(3)  // the one-parameter settings: ESC ! - E G M a t 2 3 J d R ...
            }
        case 0x1D:  // GS
            guard let command = at(1) else { return nil }
            switch command {
            case 0x76:  // GS v 0 m xL xH yL yH data
                guard let x = littleEndian(4, 2), let y = littleEndian(6, 2) else { return nil }
                return need(8 + x * y)
            case 0x28:  // GS ( X pL pH ...
                guard let kind = at(2), let length = littleEndian(3, 2) else { return nil }
                guard bytes.count >= 5 + length else { return nil }
                if kind == 0x48, length == 6, at(5) == 48 {
                    return (11, .processID(Array(bytes.dropFirst(7).prefix(4))))
                }
                return (5 + length, nil)
            case 0x38:  // GS 8 L p1 p2 p3 p4 ...
                guard let length = littleEndian(3, 4) else { return nil }
                return need(7 + length)
            case 0x6B:  // GS k m: m 0-6 ends with NUL, 65-79 has a count n
                guard let m = at(2) else { return nil }
                if m <= 6 {
                    guard let end = bytes.dropFirst(3).firstIndex(of: 0) else { return bytes.count > 259 ? (3, nil) : nil }
                    return (end - bytes.startIndex + 1, nil)
                }
                guard let n = at(3) else { return nil }
                return need(4 + Int(n))
            case 0x2A:  // GS * x y data: x * y * 8 bytes
                guard let x = at(2), let y = at(3) else { return nil }
                return need(4 + Int(x) * Int(y) * 8)
            case 0x72: return at(2).map { (3, .transmitStatus($0)) }
            case 0x61: return at(2).map { (3, .automaticStatus($0)) }
            case 0x49: return at(2).map { (3, .printerID($0)) }
            case 0x56:  // GS V m [n]
                guard let m = at(2) else { return nil }
                return [0, 1, 48, 49].contains(m) ? (3, nil) : need(4)
            case 0x3A: return (2, nil)
            case 0x24, 0x4C, 0x50, 0x57, 0x5C: return need(4)
            case 0x5E: return need(5)
            default: return need(3)
            }
        case 0x1C:  // FS
            guard let command = at(1) else { return nil }
            switch command {
            case 0x28:
                guard let length = littleEndian(3, 2) else { return nil }
                return need(5 + length)
            case 0x70: return need(4)
            case 0x2E, 0x26: return (2, nil)
            default: return need(3)
            }
        default:
            return (1, nil)  // LF, CR, HT, FF, CAN and other single control bytes
        }
    }
}
