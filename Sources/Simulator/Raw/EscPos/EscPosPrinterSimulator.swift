/// A receipt printer driven by ESC/POS, simulated on 127.0.0.1 (as a
/// network printer's port 9100) or on a pseudo-terminal (as a serial or
/// USB-serial line), for the tests and the demo.
///
/// It serves one connection at a time; a second client's connection waits
/// in the listen queue until the first ends, as with a real printer. A
/// thread of its own reads and interprets the stream at once: raster into
/// pieces of paper, feeds, cuts, drawer pulses, and status answers from the
/// state a test sets (`setState`). Faults: `stopReading()` and
/// `dropConnection(afterBytes:)`.
///
/// Stopped by `stop()` or when released.
public final class EscPosPrinterSimulator: RawPrinterSimulation {
    /// The printer's mechanism.
    public struct Configuration: Sendable, Hashable {
        /// The printable width in dots: 576 for an 80 mm roll at 203 dpi, 512
        /// for an 80 mm TM-T88 at 180 dpi, 384 for 58 mm at 203 dpi.
        public var printableWidth: Int
        /// The head's resolution, which turns motion units into dots.
        public var dotsPerInch: Int
        /// The default vertical motion unit, 1/x inch (GS P with y = 0
        /// restores it). ESC J, ESC 3 and GS V's n count in it.
        public var verticalMotionUnitsPerInch: Int
        /// The receive buffer of a TCP connection, in bytes: a client that
        /// keeps writing to a printer that stopped reading blocks after
        /// about this much (plus its own send buffer).
        public var receiveBufferBytes: Int
        /// The most bytes a second it takes: a serial line's speed (baud / 10
        /// at 8N1; a pseudo-terminal has none of its own), or a slow printer
        /// working through its buffer. Nil takes whatever comes at once.
        public var bytesPerSecond: Int?

        /// `verticalMotionUnitsPerInch` defaults to one unit per dot.
        public init(printableWidth: Int = 576, dotsPerInch: Int = 203, verticalMotionUnitsPerInch: Int? = nil,
                    receiveBufferBytes: Int = 8192, bytesPerSecond: Int? = nil) {
            self.printableWidth = printableWidth
            self.dotsPerInch = dotsPerInch
            self.verticalMotionUnitsPerInch = verticalMotionUnitsPerInch ?? dotsPerInch
            self.receiveBufferBytes = receiveBufferBytes
            self.bytesPerSecond = bytesPerSecond
        }
    }

    public let configuration: Configuration
    private let link: RawLink<EscPosEngine>

    /// Listens on 127.0.0.1:`port`; 0 lets the system pick a free port (see `endpoint`).
    public init(port: Int = 0, configuration: Configuration = Configuration()) throws {
        self.configuration = configuration
        link = try .listening(engine: EscPosEngine(configuration: configuration), port: port,
                              receiveBuffer: configuration.receiveBufferBytes, bytesPerSecond: configuration.bytesPerSecond)
    }

    private init(configuration: Configuration, link: RawLink<EscPosEngine>) {
        self.configuration = configuration
        self.link = link
    }

    /// A printer on a new pseudo-terminal: the agent opens `endpoint`'s
    /// `/dev/pts/N` as its serial line and must put it in raw mode, as it
    /// would a real port.
    public static func serialLine(_ configuration: Configuration = Configuration()) throws -> EscPosPrinterSimulator {
        EscPosPrinterSimulator(configuration: configuration,
                               link: try .pseudoTerminal(engine: EscPosEngine(configuration: configuration),
                                                         bytesPerSecond: configuration.bytesPerSecond))
    }

    deinit { link.stop() }

    /// Stops listening and closes every connection. Safe to call twice.
    public func stop() { link.stop() }

    // MARK: Where it is

    public var endpoint: RawEndpoint { link.endpoint }

    // MARK: State and faults

    /// The sensors as the printer reports them now.
    public var state: EscPosPrinterState { link.read(\.state) }

    /// Sets the sensors. A change sends what a real printer would send by
    /// itself: an ASB report (when GS a enabled it), and process IDs held
    /// while it could not print.
    public func setState(_ state: EscPosPrinterState) {
        link.update { $0.setState(state) }
    }

    /// Changes some sensors, e.g. `update { $0.paperOut = true }`.
    public func update(_ change: (inout EscPosPrinterState) -> Void) {
        link.update { engine in
            var state = engine.state
            change(&state)
            return engine.setState(state)
        }
    }

    /// Stops reading the connection (a full buffer, a printer busy with a
    /// jam): once this returns, not one more byte is read, so the client's
    /// writes fill the socket and then block. Status requests go unanswered.
    public func stopReading() { link.stopReading() }

    /// Reads again, beginning with what waited.
    public func resumeReading() { link.resumeReading() }

    /// Closes the connection abruptly (a reset) once `count` more bytes have
    /// been read; on a pseudo-terminal the line hangs up for good, as a
    /// USB-serial adapter pulled out.
    public func dropConnection(afterBytes count: Int) { link.dropConnection(afterBytes: count) }

    // MARK: What it received

    /// Everything received and done so far.
    public var record: EscPosRecord {
        link.line.withLock { line in
            var record = line.engine.record
            record.bytesReceived = line.bytesReceived
            record.received = line.received
            record.bytesSent = line.bytesSent
            record.connections = line.connectionsAccepted
            return record
        }
    }

    /// Bytes received so far, read without copying the record (for timing loops).
    public var bytesReceived: Int { link.line.withLock { $0.bytesReceived } }

    /// The pieces cut so far.
    public var pieces: [EscPosPiece] { link.read(\.record.pieces) }

    public func summary(of record: EscPosRecord) -> String {
        "\(record.bytesReceived) bytes, \(record.pieces.count) piece(s), \(record.commands.count) command(s)"
    }

    /// Waits for at least `count` pieces and returns them all.
    public func pieces(atLeast count: Int, within limit: Duration = .seconds(10)) async throws -> [EscPosPiece] {
        try await record("\(count) cut piece(s)", within: limit) { $0.pieces.count >= count }.pieces
    }

    /// Waits until at least `count` bytes have been received in all.
    public func waitForBytes(_ count: Int, within limit: Duration = .seconds(10)) async throws {
        _ = try await record("\(count) bytes", within: limit) { $0.bytesReceived >= count }
    }
}
