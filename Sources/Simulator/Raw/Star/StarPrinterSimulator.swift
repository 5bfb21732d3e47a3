public import PrintModel

/// A Star receipt printer, simulated on 127.0.0.1 (as a network printer's
/// port 9100) or on a pseudo-terminal (as a serial or USB-serial line), in
/// the language of its emulation: Star Graphic mode (a TSP143III), Star Line
/// mode (a TSP654II) or StarPRNT (an mC-Print3), for the tests and the demo.
///
/// Like the ESC/POS simulator it serves one connection at a time, reads on a
/// thread of its own, prints raster onto pieces of paper, cuts, drives the
/// drawer and answers `ESC ACK SOH` with the automatic status of the state a
/// test sets. Stopped by `stop()` or when released.
public final class StarPrinterSimulator: RawPrinterSimulation {
    /// The printer's mechanism and language.
    public struct Configuration: Sendable, Hashable {
        /// The language it speaks: `.starGraphic`, `.starLine` or `.starPRNT`.
        public var emulation: PrinterLanguage
        /// The printable width in dots: 576 for 80 mm at 203 dpi, 384 for 58 mm, 832 for 112 mm.
        public var printableWidth: Int
        /// The receive buffer of a TCP connection, in bytes.
        public var receiveBufferBytes: Int
        /// The most bytes a second it takes (a serial line's baud / 10); nil takes whatever comes.
        public var bytesPerSecond: Int?

        public init(emulation: PrinterLanguage, printableWidth: Int = 576, receiveBufferBytes: Int = 8192,
                    bytesPerSecond: Int? = nil) {
            precondition([.starGraphic, .starLine, .starPRNT].contains(emulation), "a Star printer speaks one of Star's languages")
            self.emulation = emulation; self.printableWidth = printableWidth
            self.receiveBufferBytes = receiveBufferBytes; self.bytesPerSecond = bytesPerSecond
        }
    }

    public let configuration: Configuration
    private let link: RawLink<StarEngine>

    /// Listens on 127.0.0.1:`port`; 0 lets the system pick a free port (see `endpoint`).
    public init(port: Int = 0, configuration: Configuration) throws {
        self.configuration = configuration
        link = try .listening(engine: StarEngine(configuration: configuration), port: port,
                              receiveBuffer: configuration.receiveBufferBytes, bytesPerSecond: configuration.bytesPerSecond)
    }

    private init(configuration: Configuration, link: RawLink<StarEngine>) {
        self.configuration = configuration
        self.link = link
    }

    /// A printer on a new pseudo-terminal, opened by the agent as its serial line.
    public static func serialLine(_ configuration: Configuration) throws -> StarPrinterSimulator {
        StarPrinterSimulator(configuration: configuration,
                             link: try .pseudoTerminal(engine: StarEngine(configuration: configuration),
                                                       bytesPerSecond: configuration.bytesPerSecond))
    }

    deinit { link.stop() }

    /// Stops listening and closes every connection. Safe to call twice.
    public func stop() { link.stop() }

    public var endpoint: RawEndpoint { link.endpoint }

    /// The sensors as the printer reports them now.
    public var state: StarPrinterState { link.read(\.state) }

    /// Changes some sensors, e.g. `update { $0.paperOut = true }`.
    public func update(_ change: (inout StarPrinterState) -> Void) {
        link.update { engine in
            var state = engine.state
            change(&state)
            return engine.setState(state)
        }
    }

    /// Everything received and done so far.
    public var record: StarRecord {
        link.line.withLock { line in
            var record = line.engine.record
            record.bytesReceived = line.bytesReceived
            record.bytesSent = line.bytesSent
            record.connections = line.connectionsAccepted
            return record
        }
    }

    public func summary(of record: StarRecord) -> String {
        "\(record.bytesReceived) bytes, \(record.pieces.count) piece(s), \(record.commands.count) command(s)"
    }

    /// Waits for at least `count` pieces and returns them all.
    public func pieces(atLeast count: Int, within limit: Duration = .seconds(10)) async throws -> [StarPiece] {
        try await record("\(count) cut piece(s)", within: limit) { $0.pieces.count >= count }.pieces
    }
}
