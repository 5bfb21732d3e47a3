import Foundation
import PrintModel
import Setup
import Simulator
import Spooler
import Store
import Synchronization
import Templates
import Testing

/// Recording printers of a test's own, a database of its own, and a spooler
/// paced for tests (short waits, so a failure shows quickly).
struct SpoolLab {
    let lab: PrinterLab
    let store: KioskStore
    let events = EventLog()

    static func make() async throws -> SpoolLab {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("kioskprint-spool-\(UUID().uuidString)/kioskprint.sqlite").path
        return SpoolLab(lab: try await PrinterLab.shared(), store: try KioskStore(path: path))
    }

    /// A recording printer of this test's own, uniquely named.
    func printer(_ preset: SimulatedPrinter, _ label: String, delay: Duration = .zero) async throws -> RunningPrinter {
        let base = preset.named("\(label) \(try Loopback.freePort())")
        return try await lab.startPrinter(.recording(base, delay: delay))
    }

    /// Saves `printer` under `role`, contacted as the picker would.
    func assign(_ printer: RunningPrinter, to role: String, as place: RolePlace = .primary) async throws {
        _ = try await RoleSetup(store: store).add(uri: printer.uri, role: try Role(role), as: place, force: true)
    }

    static let configuration = SpoolerConfiguration(
        lease: .seconds(20), retry: RetryPolicy(initial: .milliseconds(50), maximum: .milliseconds(300)),
        failoverGrace: .milliseconds(700), idlePoll: .milliseconds(20), followInterval: .milliseconds(50),
        requestTimeout: .seconds(10))

    func spooler(_ configuration: SpoolerConfiguration = SpoolLab.configuration, templates: [String] = []) -> Spooler {
        let events = events
        return Spooler(store: store, preparer: DocumentPreparer(catalog: TemplateCatalog(folders: templates)),
                       configuration: configuration) { events.append($0) }
    }

    /// A job of the built-in `template` with its sample data (or `data`).
    func enqueue(_ template: String, role: String, name: String, data: String? = nil) async throws -> PrintJob {
        let sample = BuiltInTemplates.all.first { $0.name == template }?.sampleData ?? "{}"
        return try await store.enqueue(name: name, role: try Role(role),
                                       content: .template(name: template, dataJSON: data ?? sample))
    }

    /// Reads the job until `condition` holds; the limit only bounds a failure.
    func job(_ id: JobID, within limit: Duration = .seconds(20), until condition: @escaping @Sendable (PrintJob) -> Bool)
        async throws -> PrintJob {
        let store = store
        try await pollUntil("job \(id) to reach the expected state", within: limit) {
            condition(try await store.job(id))
        }
        return try await store.job(id)
    }
}

/// The spooler's events, kept for assertions.
final class EventLog: Sendable {
    private let events = Mutex<[SpoolerEvent]>([])
    func append(_ event: SpoolerEvent) {
        print("spooler: \(event)")  // in the test log, to read a failure by
        events.withLock { $0.append(event) }
    }
    var all: [SpoolerEvent] { events.withLock { $0 } }
    var lines: [String] { all.map(\.description) }
}
