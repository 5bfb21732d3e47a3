import GPIO
import Logging
import PrintModel
import Synchronization

/// Keeps every log line, so tests can read what the agent said.
final class LogRecorder: Sendable {
    let lines = Mutex<[String]>([])

    var logger: Logger {
        var logger = Logger(label: "test") { _ in RecordingHandler(recorder: self) }
        logger.logLevel = .debug
        return logger
    }

    var all: [String] { lines.withLock { $0 } }
    func contains(_ text: String) -> Bool { all.contains { $0.contains(text) } }

    struct RecordingHandler: LogHandler {
        let recorder: LogRecorder
        var logLevel: Logger.Level = .debug
        var metadata: Logger.Metadata = [:]
        var metadataProvider: Logger.MetadataProvider?
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }
        func log(event: LogEvent) {
            recorder.lines.withLock { $0.append("\(event.level) \(event.message)") }
        }
    }
}

/// GPIO lines a test drives: edges are pushed in, lights are read out.
/// Chips named "missing" do not exist.
final class FakeGPIO: GPIOLines {
    private let inputs = Mutex<[LineAddress: AsyncStream<LineEdge>.Continuation]>([:])
    let outputs = Mutex<[LineAddress: [Bool]]>([:])

    func watch(_ address: LineAddress, consumer: String, settings: InputSettings) throws(GPIOError) -> any EdgeSource {
        guard address.chip != "missing" else { throw GPIOError(chip: address.chip, line: address.line, reason: .noSuchChip(errno: 2)) }
        let (stream, continuation) = AsyncStream<LineEdge>.makeStream()
        inputs.withLock { $0[address] = continuation }
        return Source(edges: stream, continuation: continuation)
    }

    func output(_ address: LineAddress, consumer: String, activeLow: Bool) throws(GPIOError) -> any OutputLine {
        guard address.chip != "missing" else { throw GPIOError(chip: address.chip, line: address.line, reason: .noSuchChip(errno: 2)) }
        outputs.withLock { $0[address] = [] }
        return Output(address: address, gpio: self)
    }

    var watched: Set<LineAddress> { Set(inputs.withLock { $0.keys }) }

    /// A press held for `held`, as two edges with timestamps `at` and `at + held`.
    func press(_ address: LineAddress, at start: Duration, held: Duration) {
        let continuation = inputs.withLock { $0[address] }
        continuation?.yield(LineEdge(isActive: true, timestamp: start))
        continuation?.yield(LineEdge(isActive: false, timestamp: start + held))
    }

    func values(_ address: LineAddress) -> [Bool] { outputs.withLock { $0[address] ?? [] } }

    struct Source: EdgeSource {
        let edges: AsyncStream<LineEdge>
        let continuation: AsyncStream<LineEdge>.Continuation
        func close() { continuation.finish() }
    }

    struct Output: OutputLine {
        let address: LineAddress
        let gpio: FakeGPIO
        func set(_ lit: Bool) throws(GPIOError) { gpio.outputs.withLock { $0[address, default: []].append(lit) } }
        func close() {}
    }
}
