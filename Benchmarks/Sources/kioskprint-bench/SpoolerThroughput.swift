import BenchSupport
import Foundation
import PrintModel
import Setup
import Simulator
import Spooler
import Store
import Templates

/// Section 2: how many receipts a second one agent gets completed when
/// several roles have work at once. One printer per role, every job queued
/// before the spooler starts, one `Spooler.run()` task serving all the roles
/// (each role one job at a time, the roles in parallel), cancelled once the
/// store shows every job ended.
struct SpoolerThroughput: Sendable {
    var lanes: Int
    var queued: Int
    var completed: Int
    /// From `run()` being started to the poll that saw the last job end.
    var elapsed: Duration
    /// Jobs that did not end `completed`: their state and error.
    var failures: [String]

    var jobsPerSecond: Double { Double(completed) / (Millis.value(elapsed) / 1000) }

    /// How often the store is read for the end: the figure is late by at most this.
    static let pollInterval = Duration.milliseconds(10)

    static func measure(printers: [RunningPrinter], perLane: Int, folder: URL) async throws -> SpoolerThroughput {
        let store = try KioskStore(path: folder.appendingPathComponent("throughput.sqlite").path)
        let setup = RoleSetup(store: store)
        var roles: [Role] = []
        for (index, printer) in printers.enumerated() {
            let role = try Role("lane-\(index + 1)")
            _ = try await setup.add(uri: printer.uri, role: role, as: .primary)
            roles.append(role)
        }
        let content = JobContent.template(name: "receipt", dataJSON: try ReceiptSample.json())
        var queued = 0
        for index in 0..<perLane {
            for role in roles {
                _ = try await store.enqueue(name: "\(role) receipt \(index + 1)", role: role, content: content)
                queued += 1
            }
        }

        let spooler = Spooler(store: store, preparer: DocumentPreparer(catalog: TemplateCatalog()))
        let started = ContinuousClock.now
        let serving = Task { try await spooler.run() }
        do {
            // A COUNT, not the jobs: decoding 150 jobs every 10 ms took CPU from the spooler it measures.
            try await pollUntil("\(queued) queued receipts to end", within: .seconds(180), every: pollInterval) {
                try await store.queueDepth() == 0
            }
        } catch {
            serving.cancel()
            _ = await serving.result
            throw error
        }
        let elapsed = ContinuousClock.now - started
        serving.cancel()
        _ = await serving.result
        let ended = try await store.jobs(includeFinished: true).filter(\.state.isTerminal)

        let completed = ended.filter { $0.state == .completed }
        let failures = ended.filter { $0.state != .completed }
            .map { "\($0.state): \($0.lastError ?? "no error recorded")" }
        return SpoolerThroughput(lanes: roles.count, queued: queued, completed: completed.count, elapsed: elapsed,
                                 failures: failures)
    }
}
