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

/// systemd's watchdog and STATUS line, and the health `kioskprint status`
/// reads. The watchdog is pinged only while the agent is healthy: the
/// database answers and no role is stuck (its loop failed three times in a
/// row: the disk full, the database locked or damaged). A stuck disk or a
/// deadlock stops the pings and systemd restarts the service; a stuck role
/// shows in `systemctl status` and makes `kioskprint status` fail.
struct WatchdogService: Service {
    let notifier: ServiceNotifier
    let store: KioskStore
    let triggers: TriggerService
    let health: RoleHealth
    let logger: Logger
    /// How often health is looked at when systemd has no watchdog for the agent.
    static let unwatchedInterval = Duration.seconds(5)

    func run() async throws {
        let interval = notifier.watchdogInterval
        var lastStatus = ""
        var lastStuck: [RoleHealth.Failure] = []
        defer { RoleHealth.record([], forDatabase: store.path) }
        while !Task.isCancelled, !Task.isShuttingDownGracefully {
            let stuck = health.stuck()
            if stuck.map(\.role) != lastStuck.map(\.role) || stuck.map(\.reason) != lastStuck.map(\.reason) {
                RoleHealth.record(stuck, forDatabase: store.path)
                if stuck.isEmpty, !lastStuck.isEmpty { logger.notice("every role prints again; the agent is healthy.") }
                lastStuck = stuck
            }
            var status: String?
            if let failure = stuck.first {
                status = "UNHEALTHY: role \(failure.role) cannot print (\(failure.count) failures in a row): \(failure.reason)"
            } else if interval != nil, let depth = try? await store.queueDepth() {
                notifier.watchdog()
                status = "\(TriggerSet.summary(of: triggers.current.withLock { $0 })); \(depth) job(s) queued"
            }
            if let status, status != lastStatus {
                notifier.status(status)
                lastStatus = status
            }
            do {
                try await cancelWhenGracefulShutdown { try await Task.sleep(for: interval ?? Self.unwatchedInterval) }
            } catch { return }
        }
    }
}
