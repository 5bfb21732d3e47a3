public import PrintModel

/// One printer command language: how a job becomes bytes, and how the
/// printer is asked for its status and its answer read. ESC/POS, ZPL II and
/// Star's three languages each implement it in a file of their own; another
/// (DPL) is one more conforming type and one case in `PrinterLanguage`.
///
/// Pure: no I/O. The connection writes `encode`'s bytes and
/// `statusRequest`, reads until `statusAnswerLength` says an answer is
/// complete, and hands those bytes to `status(from:)`.
public protocol PrinterCommandLanguage: Sendable {
    /// The language spoken.
    var language: PrinterLanguage { get }
    /// The printer it speaks to: widths, cutter, drawer pins.
    var profile: RawProfile { get }
    /// The whole job as the bytes to send, or why it cannot be printed on this printer.
    func encode(_ job: RawJob) throws(RawJobError) -> [UInt8]
    /// The bytes that only kick the cash drawer (`kioskprint drawer open`).
    func drawerKick(_ kick: DrawerKick) throws(RawJobError) -> [UInt8]
    /// The bytes that make the printer show a person which one it is (a
    /// beep), with no paper moved; nil when the language has none.
    var identifySignal: [UInt8]? { get }
    /// The bytes that ask for the printer's status.
    var statusRequest: [UInt8] { get }
    /// How many leading bytes of `received` make one complete answer to
    /// `statusRequest`; nil while more are needed.
    func statusAnswerLength(in received: [UInt8]) -> Int?
    /// The status in a complete answer.
    func status(from answer: [UInt8]) throws(StatusAnswerError) -> RawPrinterStatus
    /// The count of finished jobs a complete status answer carries, where the
    /// language keeps one that a job's end marks (Star's ETB counter, which
    /// goes up once everything before the job's `ETB` has printed); nil
    /// otherwise. A job counts as printed once the count has moved.
    func printedCount(in answer: [UInt8]) -> Int?
    /// True when `printedCount` reads a count from this language's answers
    /// and every job the encoder makes ends with the mark that moves it.
    var keepsPrintedCount: Bool { get }
    /// The printer's resident font and the text it can print in it, when the
    /// encoder sends `RawJob.deviceText` as text (`delivery = "native"`);
    /// nil when every line must be drawn.
    var deviceTextOptions: DeviceTextOptions? { get }
}

extension PrinterCommandLanguage {
    /// No count: ESC/POS confirms with process IDs, ZPL not at all.
    public func printedCount(in answer: [UInt8]) -> Int? { nil }
    public var keepsPrintedCount: Bool { false }
    /// No printer font: ZPL and Star's languages get raster only, for now.
    public var deviceTextOptions: DeviceTextOptions? { nil }
}

extension RawProfile {
    /// The command language for this printer.
    public var commandLanguage: any PrinterCommandLanguage {
        switch language {
        case .escpos: EscPosLanguage(profile: self)
        case .zpl: ZPLLanguage(profile: self)
        case .starGraphic: StarGraphicLanguage(profile: self)
        case .starLine: StarLineLanguage(profile: self)
        case .starPRNT: StarPRNTLanguage(profile: self)
        }
    }
}

/// A status answer that could not be read: the bytes are not what the
/// language's reference says the printer sends.
public struct StatusAnswerError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The language whose answer it was.
    public var language: PrinterLanguage
    /// What was wrong, in words.
    public var problem: String
    /// The bytes received, for the log.
    public var received: [UInt8]

    /// An error about the answer `received`.
    public init(language: PrinterLanguage, problem: String, received: [UInt8]) {
        self.language = language; self.problem = problem; self.received = received
    }

    public var description: String {
        let shown = received.prefix(64).map { byte in
            let hex = String(byte, radix: 16, uppercase: true)
            return byte < 0x10 ? "0" + hex : hex
        }.joined(separator: " ")
        return "The printer's \(language) status answer could not be read: \(problem) (received: \(shown.isEmpty ? "nothing" : shown)). "
            + "Check that the printer is set to \(language) and that nothing else is talking to it."
    }
}
