import KioskConfiguration
import GPIO
import Logging
import HTTPAPI
import Service
import ServiceLifecycle
import Spooler
import Store
import Synchronization
import Triggers
import UnixSignals

/// The spooler as a service: it prints until a graceful shutdown cancels it.
/// Work any process gives it (a job queued or sent again, a printer given a
/// role) wakes it through the database's wake file, so a job `kioskprint
/// print` queues beside the agent prints at once and an idle agent only
/// looks for work every `look-every`.
struct SpoolerService: Service {
    let spooler: Spooler
    let logger: Logger

    func run() async throws {
        let changes: DatabaseChanges?
        do {
            changes = try DatabaseChanges(touchesOf: spooler.store.wakeFilePath)
        } catch {
            changes = nil
            logger.warning("Jobs queued by other processes are found only every \(spooler.configuration.idlePoll): \(error)")
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            // Ends the wake-up task's stream however the spooler ends, before the group waits for it.
            defer { changes?.stop() }
            if let changes {
                group.addTask { for await _ in changes.writes { spooler.wake() } }
            }
            do {
                try await cancelWhenGracefulShutdown { try await spooler.run() }
            } catch is CancellationError {}
        }
    }
}
