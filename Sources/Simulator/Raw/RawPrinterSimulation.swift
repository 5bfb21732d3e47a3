/// What every simulated raw printer (ESC/POS, ZPL, Star) offers a test:
/// where it is, and a wait on its record. Each simulator gives its endpoint,
/// its record and how to sum a record up in a timeout's message.
public protocol RawPrinterSimulation: Sendable {
    /// Everything the printer received and did.
    associatedtype Record: Sendable
    /// Where it listens: a loopback port or a pseudo-terminal.
    var endpoint: RawEndpoint { get }
    /// Everything received and done so far.
    var record: Record { get }
    /// A record in a few words, for a wait that timed out: "120 bytes, 1 piece(s), 7 command(s)".
    func summary(of record: Record) -> String
}

extension RawPrinterSimulation {
    /// The TCP port; nil on a pseudo-terminal.
    public var port: Int? { if case .tcp(let port) = endpoint { port } else { nil } }
    /// The pseudo-terminal's `/dev/pts/N`; nil on TCP.
    public var devicePath: String? { if case .serial(let path) = endpoint { path } else { nil } }
    /// `socket://127.0.0.1:PORT` or `serial:///dev/pts/N?baud=115200`.
    public var uri: String { endpoint.uri() }

    /// Waits until `condition` holds for the record and returns that record;
    /// throws `RawSimulatorError.timedOut` if `limit` passes first. The wait
    /// ends on the event itself (checked every 10 ms); the limit only bounds a failure.
    public func record(_ what: String, within limit: Duration = .seconds(10),
                       where condition: (Record) -> Bool) async throws -> Record {
        var latest = record
        let seen = await pollUntil(within: limit) {
            latest = record
            return condition(latest)
        }
        guard seen else { throw RawSimulatorError.timedOut(waitingFor: what, seen: summary(of: latest)) }
        return latest
    }
}
