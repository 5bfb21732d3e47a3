public import PrinterLanguages
public import PrintModel

/// What a host asks a raw printer inside its print data, in either language.
public enum HostAsk: Hashable, Sendable {
    case escpos(EscPosHostAsk)
    case zpl(ZPLHostAsk)

    /// Whether the answer waits until what came before is queued: ESC/POS's
    /// `GS ( H` fn 48, a host's way of asking "is what I sent printed?".
    var confirmsWhatCameBefore: Bool {
        if case .escpos(.processID) = self { true } else { false }
    }
}

/// One host's byte stream in its printer's language, split into print data
/// and asks (``EscPosHostStream``, ``ZPLHostStream``).
struct HostStream: Sendable {
    enum Piece: Sendable { case data([UInt8]), ask(HostAsk) }

    private enum Reader: Sendable {
        case escpos(EscPosHostStream)
        case zpl(ZPLHostStream)
    }
    private var reader: Reader
    let language: PrinterLanguage

    /// Whether a host stream in `language` is read here: ESC/POS and ZPL.
    /// Star's languages are not (yet) served on the raw port.
    static func serves(_ language: PrinterLanguage) -> Bool { language == .escpos || language == .zpl }

    init(language: PrinterLanguage) {
        self.language = language
        reader = language == .zpl ? .zpl(ZPLHostStream()) : .escpos(EscPosHostStream())
    }

    /// Bytes held back: a command that has not fully arrived.
    var heldBytes: Int {
        switch reader {
        case .escpos(let stream): stream.heldBytes
        case .zpl(let stream): stream.heldBytes
        }
    }

    mutating func feed(_ bytes: some Collection<UInt8>) -> [Piece] {
        switch reader {
        case .escpos(var stream):
            defer { reader = .escpos(stream) }
            return stream.feed(bytes).map { Self.piece($0, HostAsk.escpos) }
        case .zpl(var stream):
            defer { reader = .zpl(stream) }
            return stream.feed(bytes).map { Self.piece($0, HostAsk.zpl) }
        }
    }

    private static func piece<Ask>(_ piece: HostPiece<Ask>, _ wrap: (Ask) -> HostAsk) -> Piece {
        switch piece {
        case .data(let data): .data(data)
        case .ask(let ask): .ask(wrap(ask))
        }
    }

    /// A command cut off by the end of the stream, kept as data.
    mutating func finish() -> [UInt8] {
        switch reader {
        case .escpos(var stream):
            defer { reader = .escpos(stream) }
            return stream.finish()
        case .zpl(var stream):
            defer { reader = .zpl(stream) }
            return stream.finish()
        }
    }

    /// Whether `data` would print nothing: only `ESC @` (which a POS sends
    /// before every status poll) or, in ZPL, only white space. Such a
    /// connection is a status poll, not a job.
    static func printsNothing(_ data: [UInt8], language: PrinterLanguage) -> Bool {
        if language == .zpl { return data.allSatisfy { [0x20, 0x09, 0x0D, 0x0A].contains($0) } }
        var index = 0
        while index + 1 < data.count, data[index] == 0x1B, data[index + 1] == 0x40 { index += 2 }
        return index == data.count
    }
}
