/// What a host asks a Zebra printer in the middle of its ZPL: the control
/// commands a printer answers rather than prints.
public enum ZPLHostAsk: Hashable, Sendable {
    /// `~HS`, "Host Status Return": three framed strings.
    case hostStatus
    /// `~HI`, "Host Identification": model, firmware, dots per millimetre, memory.
    case hostIdentification
}

/// A piece of a host's ZPL.
public typealias ZPLHostPiece = HostPiece<ZPLHostAsk>

/// Splits the ZPL a host sends into label data and asks. ZPL is text: a
/// control command starts with `~` wherever it stands (a `~` meant as text
/// inside a field must be written with `^FH`, because the printer itself
/// would take it for a command), so `~HS` and `~HI` are found by their bytes.
/// `~HQ` queries and the rest pass through to the printer.
public struct ZPLHostStream: Sendable {
    private var pending: [UInt8] = []

    /// A stream that has seen nothing yet.
    public init() {}

    public var heldBytes: Int { pending.count }

    /// The pieces `bytes` completes, label data merged; a `~` too near the end
    /// to say what it starts is held back.
    public mutating func feed(_ bytes: some Collection<UInt8>) -> [ZPLHostPiece] {
        pending.append(contentsOf: bytes)
        var pieces: [ZPLHostPiece] = []
        var dataStart = 0, offset = 0
        while let tilde = pending[offset...].firstIndex(of: 0x7E) {
            guard tilde + 2 < pending.count else { offset = tilde; break }
            let ask: ZPLHostAsk? = switch (pending[tilde + 1] | 0x20, pending[tilde + 2] | 0x20) {
            case (0x68, 0x73): .hostStatus          // ~HS (ZPL takes commands in either case)
            case (0x68, 0x69): .hostIdentification  // ~HI
            default: nil
            }
            offset = tilde + 1
            guard let ask else { continue }
            if dataStart < tilde { pieces.append(.data(Array(pending[dataStart..<tilde]))) }
            pieces.append(.ask(ask))
            dataStart = tilde + 3
            offset = dataStart
        }
        if pending[offset...].firstIndex(of: 0x7E) == nil { offset = pending.count }
        if dataStart < offset { pieces.append(.data(Array(pending[dataStart..<offset]))) }
        pending.removeFirst(offset)
        return pieces
    }

    /// At the end of the stream: what was held back, as data.
    public mutating func finish() -> [UInt8] {
        defer { pending.removeAll() }
        return pending
    }
}

/// The answers a Zebra printer in `status` gives: the layout ``ZPLHostStatus``
/// reads, from Zebra's ZPL II Programming Guide (~HS, ~HI).
public struct ZPLStatusAnswers: Sendable {
    public var status: RawPrinterStatus
    /// `~HI`'s model field.
    public var model: String
    /// The head's dots per millimetre (8 at 203 dpi, 12 at 300 dpi).
    public var dotsPerMillimetre: Int

    public init(status: RawPrinterStatus, model: String = "KIOSKPRINT", dotsPerMillimetre: Int = 8) {
        self.status = status; self.model = model; self.dotsPerMillimetre = dotsPerMillimetre
    }

    public func answer(_ ask: ZPLHostAsk) -> [UInt8] {
        func framed(_ text: String) -> [UInt8] { [0x02] + Array(text.utf8) + [0x03, 0x0D, 0x0A] }
        func flag(_ on: Bool) -> String { on ? "1" : "0" }
        switch ask {
        case .hostStatus:
            let temperature = status.autoRecoverableError
            return framed("030,\(flag(status.paperEnd)),\(flag(status.paused || status.offline)),0000,000,\(flag(status.bufferFull)),0,0,000,0,0,\(flag(temperature))")
                + framed("000,0,\(flag(status.coverOpen)),\(flag(status.ribbonOut)),0,3,0,0,00000000,1,000")
                + framed("1234,0")
        case .hostIdentification:
            let name = String(model.uppercased().filter { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }.prefix(20))
            return framed("\(name.isEmpty ? "KIOSKPRINT" : name),V1.0,\(dotsPerMillimetre),8192KB")
        }
    }
}
