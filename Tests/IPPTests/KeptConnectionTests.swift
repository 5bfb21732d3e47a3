import Foundation
@testable import IPP
import PrintModel
import Simulator
import Testing

/// Exchanges with one printer share a connection that stays open between
/// them, against real ippeveprinters: counted from outside (the machine's
/// socket table) and by the cache.
@Suite("Kept connections")
struct KeptConnectionTests {
    private func printer(_ label: String) async throws -> RunningPrinter {
        let lab = try await PrinterLab.shared()
        return try await lab.startPrinter(SimulatedPrinter.receipt80mm.named("\(label) \(try Loopback.freePort())"))
    }

    private func key(_ printer: RunningPrinter) throws -> ConnectionKey {
        ConnectionKey(try IPPEndpoint(uri: printer.uri), pin: nil)
    }

    @Test("Several exchanges with one printer run over one connection, opened once")
    func oneConnection() async throws {
        let printer = try await printer("Kept Receipt")
        defer { retire(printer) }
        // Apart from the finder's tests in this process, which contact every lab printer.
        let (before, after) = try await LabContactLock.shared.run {
            let before = try LoopbackSockets(to: printer.port)
            _ = try await PrinterContact.contact(uri: printer.uri)
            for _ in 0..<5 { _ = try await PrinterContact.state(uri: printer.uri) }
            let submitted = try await PrinterJobs.submit(try JobLab.receipt(JobLab.marker()), to: printer.uri)
            _ = try await PrinterJobs.status(of: submitted.id, at: printer.uri)
            return (before, try LoopbackSockets(to: printer.port))
        }
        let opened = after.opened(since: before)
        #expect(opened.count == 1, "client sockets opened to the printer: \(after.sockets)")
        #expect(opened.isSubset(of: after.established), "the one connection is still open: \(after.sockets)")
        #expect(ConnectionCache.shared.counts(for: try key(printer)) == ConnectionCounts(opened: 1, reused: 7))
    }

    @Test("A printer restarted between two exchanges answers the second on a new connection", arguments: [false, true])
    func restartedPrinter(secure: Bool) async throws {
        let lab = try await PrinterLab.shared()
        let first = try await printer("Restarted Receipt\(secure ? " S" : "")")
        let uri = secure ? first.secureURI : first.uri
        let key = ConnectionKey(try IPPEndpoint(uri: uri), pin: nil)
        _ = try await PrinterContact.contact(uri: uri)
        #expect(ConnectionCache.shared.idleCount(for: key) == 1, "the connection is kept")

        let second = try await lab.restart(first)
        defer { retire(second) }
        // The kept connection's printer is gone: noticed before it is used.
        let status = try await PrinterContact.state(uri: uri)
        #expect(status.state == .idle)
        let submitted = try await PrinterJobs.submit(try JobLab.receipt(JobLab.marker()), to: uri)
        #expect(submitted.id > 0)
        #expect(ConnectionCache.shared.counts(for: key).opened == 2)
    }

    @Test("A hung printer holds a worker; another printer's exchange gets its own at once")
    func hungPrinterDoesNotDelayAnother() async throws {
        let hung = try await printer("Hung Kept Receipt")
        defer { retire(hung) }
        let lab = try await PrinterLab.shared()
        let other = try #require(lab.printer(.receipt80mm))
        _ = try await PrinterContact.contact(uri: hung.uri)
        hung.suspend()

        let hungDone = Flag()
        let stuck = Task {
            defer { hungDone.set() }
            return try await PrinterContact.contact(uri: hung.uri, timeout: .seconds(60))
        }
        // The hung exchange is under way once it has taken the kept connection.
        let hungKey = try key(hung)
        let lent = await pollUntil(within: .seconds(10)) { ConnectionCache.shared.idleCount(for: hungKey) == 0 }
        #expect(lent)
        let answer = try await PrinterContact.contact(uri: other.uri)
        #expect(answer.kinds.contains(.receipt))
        #expect(!hungDone.isSet, "the other printer answered while the hung one still holds its worker")

        stuck.cancel()
        await #expect(throws: ContactError.cancelled(uri: hung.uri)) { try await stuck.value }
    }

    @Test("Connections unused for the idle limit are closed")
    func idleConnectionsClosed() async throws {
        let printer = try await printer("Idle Receipt")
        defer { retire(printer) }
        let key = try key(printer)
        _ = try await PrinterContact.state(uri: printer.uri)
        // Tests running agents in this process may reach the new printer too:
        // at least ours is kept, and all of them must go.
        let open = try LoopbackSockets(to: printer.port).established
        #expect(!open.isEmpty)
        #expect(ConnectionCache.shared.idleCount(for: key) >= 1)

        // Closed by the cache's sweep (idle limit 5 s), not by the printer (30 s).
        let closed = await pollUntil(within: .seconds(20), every: .milliseconds(100)) {
            ConnectionCache.shared.idleCount(for: key) == 0
                && (try? LoopbackSockets(to: printer.port).established.isDisjoint(with: open)) == true
        }
        #expect(closed, "still open: \(String(describing: try? LoopbackSockets(to: printer.port).sockets))")
    }
}

/// A one-way switch that several tasks read.
final class Flag: @unchecked Sendable { // `value` guarded by `lock`
    private let lock = NSLock()
    private var value = false
    func set() { lock.withLock { value = true } }
    var isSet: Bool { lock.withLock { value } }
}
