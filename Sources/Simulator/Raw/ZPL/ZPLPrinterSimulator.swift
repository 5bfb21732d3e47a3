/// A label printer driven by ZPL II, simulated on 127.0.0.1 (as a Zebra's
/// port 9100) or on a pseudo-terminal, for the tests and the demo.
///
/// Like `EscPosPrinterSimulator` it serves one connection at a time, reads
/// on a thread of its own and can stop reading or drop the connection. Each
/// `^XA ... ^XZ` format becomes a `ZPLLabel`; `~HS` is answered from the
/// state a test sets.
public final class ZPLPrinterSimulator: RawPrinterSimulation {
    /// The printer's mechanism and firmware behaviour.
    public struct Configuration: Sendable, Hashable {
        /// The print width until `^PW` sets one: 812 dots is 4 in at 203 dpi.
        public var printWidth: Int
        /// The label length until `^LL` sets one: 1218 dots is 6 in at 203 dpi.
        public var labelLength: Int
        /// The receive buffer of a TCP connection, in bytes.
        public var receiveBufferBytes: Int
        /// Whether `~HS` is answered while out of paper, paused or with the
        /// head up. The ZPL II Programming Guide's strings carry flags for
        /// exactly these states, but Zebra's current online reference says
        /// printers in some of them (media out, head open) send no answer
        /// at all: false simulates those.
        public var answersHostStatusWhenFaulted: Bool

        public init(printWidth: Int = 812, labelLength: Int = 1218, receiveBufferBytes: Int = 8192,
                    answersHostStatusWhenFaulted: Bool = true) {
            self.printWidth = printWidth
            self.labelLength = labelLength
            self.receiveBufferBytes = receiveBufferBytes
            self.answersHostStatusWhenFaulted = answersHostStatusWhenFaulted
        }
    }

    public let configuration: Configuration
    private let link: RawLink<ZPLEngine>

    /// Listens on 127.0.0.1:`port`; 0 lets the system pick a free port (see `endpoint`).
    public init(port: Int = 0, configuration: Configuration = Configuration()) throws {
        self.configuration = configuration
        link = try .listening(engine: ZPLEngine(configuration: configuration), port: port,
                              receiveBuffer: configuration.receiveBufferBytes)
    }

    private init(configuration: Configuration, link: RawLink<ZPLEngine>) {
        self.configuration = configuration
        self.link = link
    }

    /// A printer on a new pseudo-terminal (`endpoint` is its `/dev/pts/N`).
    public static func serialLine(_ configuration: Configuration = Configuration()) throws -> ZPLPrinterSimulator {
        ZPLPrinterSimulator(configuration: configuration,
                            link: try .pseudoTerminal(engine: ZPLEngine(configuration: configuration)))
    }

    deinit { link.stop() }

    /// Stops listening and closes every connection. Safe to call twice.
    public func stop() { link.stop() }

    public var endpoint: RawEndpoint { link.endpoint }

    /// The sensors as the printer reports them now.
    public var state: ZPLPrinterState { link.read(\.state) }

    /// Sets the sensors; formats that waited print once the printer can print.
    public func setState(_ state: ZPLPrinterState) { link.update { $0.setState(state) } }

    /// Changes some sensors, e.g. `update { $0.headUp = true }`.
    public func update(_ change: (inout ZPLPrinterState) -> Void) {
        link.update { engine in
            var state = engine.state
            change(&state)
            return engine.setState(state)
        }
    }

    /// Stops reading: once this returns, not one more byte is read.
    public func stopReading() { link.stopReading() }
    /// Reads again, beginning with what waited.
    public func resumeReading() { link.resumeReading() }
    /// Resets the connection once `count` more bytes have been read.
    public func dropConnection(afterBytes count: Int) { link.dropConnection(afterBytes: count) }

    /// Everything received and done so far.
    public var record: ZPLRecord {
        link.line.withLock { line in
            var record = line.engine.record
            record.bytesReceived = line.bytesReceived
            record.received = line.received
            record.bytesSent = line.bytesSent
            record.connections = line.connectionsAccepted
            return record
        }
    }

    /// The labels printed so far.
    public var labels: [ZPLLabel] { link.read(\.record.labels) }

    public func summary(of record: ZPLRecord) -> String {
        "\(record.bytesReceived) bytes, \(record.labels.count) label(s), \(record.commands.count) command(s)"
    }

    /// Waits for at least `count` printed labels and returns them all.
    public func labels(atLeast count: Int, within limit: Duration = .seconds(10)) async throws -> [ZPLLabel] {
        try await record("\(count) label(s)", within: limit) { $0.labels.count >= count }.labels
    }

    /// Waits until at least `count` bytes have been received in all.
    public func waitForBytes(_ count: Int, within limit: Duration = .seconds(10)) async throws {
        _ = try await record("\(count) bytes", within: limit) { $0.bytesReceived >= count }
    }
}
