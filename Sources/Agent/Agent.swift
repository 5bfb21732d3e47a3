public import Configuration
public import GPIO
public import Logging
import Service
import ServiceLifecycle
public import Spooler
import Store
import Synchronization
import Triggers
import UnixSignals

/// The agent `kioskprint run` starts: the spooler, the triggers of the
/// configuration in force, the purge of old finished jobs, and the
/// conversation with systemd, as one service group.
///
/// - SIGTERM and SIGINT shut it down gracefully: triggers stop taking new
///   work, a file or press being queued is finished, and the spooler stops
///   (a document being sent is found again by its marker next time); the
///   queue stays in the database.
/// - SIGHUP reads the configuration file again. A file with a problem is
///   logged and the configuration in force stays; a good one replaces the
///   triggers (folders, buttons, lights) without touching the queue.
public struct Agent: Sendable {
    public let configuration: AgentConfiguration
    public let intake: JobIntake
    public let spooler: Spooler
    public let gpio: any GPIOLines
    public let logger: Logger
    /// Reads the configuration file again on SIGHUP; nil when the agent runs
    /// on built-in defaults (then SIGHUP changes nothing).
    let reload: (@Sendable () throws(ConfigurationError) -> AgentConfiguration)?

    public init(configuration: AgentConfiguration, intake: JobIntake, spooler: Spooler, gpio: any GPIOLines = Libgpiod(),
                logger: Logger, reload: (@Sendable () throws(ConfigurationError) -> AgentConfiguration)?) {
        self.configuration = configuration
        self.intake = intake
        self.spooler = spooler
        self.gpio = gpio
        self.logger = logger
        self.reload = reload
    }

    /// Runs until SIGTERM or SIGINT (or until the task is cancelled).
    public func run() async throws {
        let notifier = ServiceNotifier()
        let triggers = TriggerService(agent: self, notifier: notifier)
        let group = ServiceGroup(configuration: ServiceGroupConfiguration(
            services: [
                .init(service: SpoolerService(spooler: spooler, logger: logger), serviceName: "spooler"),
                .init(service: triggers, serviceName: "triggers"),
                .init(service: WatchdogService(notifier: notifier, store: intake.store, triggers: triggers), serviceName: "watchdog"),
                .init(service: RetentionService(store: intake.store, spoolFolder: intake.spoolFolder, logger: logger,
                                                settings: { triggers.current.withLock { $0.retention } }),
                      serviceName: "retention"),
            ],
            gracefulShutdownSignals: [.sigterm, .sigint],
            logger: logger.withLevel(.warning)))
        try await group.run()
    }
}

extension Logger {
    /// A copy at another level, for libraries whose chatter the agent's own log does not need.
    func withLevel(_ level: Logger.Level) -> Logger {
        var copy = self
        copy.logLevel = level
        return copy
    }
}

/// The spooler as a service: it prints until a graceful shutdown cancels it.
/// Writes to the database by any process wake it, so a job `kioskprint
/// print` queues beside the agent prints at once and an idle agent only
/// looks for work every `look-every`.
struct SpoolerService: Service {
    let spooler: Spooler
    let logger: Logger

    func run() async throws {
        let changes: DatabaseChanges?
        do {
            changes = try DatabaseChanges(database: spooler.store.path)
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

/// The configuration's triggers, replaced on SIGHUP by a good new configuration.
final class TriggerService: Service, Sendable {
    let agent: Agent
    let notifier: ServiceNotifier
    /// The configuration in force, for status lines and the watchdog.
    let current: Mutex<AgentConfiguration>

    init(agent: Agent, notifier: ServiceNotifier) {
        self.agent = agent
        self.notifier = notifier
        current = Mutex(agent.configuration)
    }

    func run() async throws {
        let hangups = await UnixSignalsSequence(trapping: .sighup)
        var running = start(agent.configuration)
        let queued = (try? await agent.intake.store.queueDepth()) ?? 0
        notifier.ready(status: "\(running.set.summary); \(queued) job(s) queued")
        agent.logger.notice(Logger.Message(stringLiteral: "kioskprint agent ready: \(running.set.summary), box \(agent.configuration.box), "
            + "database \(agent.intake.store.path)"))
        for await _ in hangups.cancelOnGracefulShutdown() {
            guard let reload = agent.reload else {
                agent.logger.notice("SIGHUP: the agent runs on built-in defaults (no configuration file); nothing to reload.")
                continue
            }
            let next: AgentConfiguration
            do {
                next = try reload()
                let problems = MachineCheck.problems(in: next, catalog: agent.intake.catalog)
                if !problems.isEmpty { throw ConfigurationError(path: next.source ?? "configuration", problems: problems) }
            } catch {
                agent.logger.error("SIGHUP: the configuration was not reloaded, the one in force stays: \(error)")
                continue
            }
            running.task.cancel()
            await running.task.value
            if next.database != current.withLock({ $0.database }) || next.logLevel != current.withLock({ $0.logLevel }) {
                agent.logger.notice("SIGHUP: database and log-level changes take effect at the next start.")
            }
            running = start(next)
            agent.logger.notice("SIGHUP: configuration reloaded: \(running.set.summary)")
            notifier.status("\(running.set.summary); configuration reloaded")
        }
        notifier.stopping()
        agent.logger.notice("kioskprint agent stopping: triggers stop, the queue is kept.")
        running.task.cancel()
        await running.task.value
    }

    private func start(_ configuration: AgentConfiguration) -> (set: TriggerSet, task: Task<Void, Never>) {
        current.withLock { $0 = configuration }
        let spooler = agent.spooler
        let set = TriggerSet(configuration: configuration, intake: agent.intake, gpio: agent.gpio, logger: agent.logger,
                             jobQueued: { spooler.wake() })
        return (set, Task { await set.run() })
    }
}

/// systemd's watchdog, pinged only while the agent is healthy: while the
/// database answers. A stuck disk or a deadlock stops the pings and systemd
/// restarts the service.
struct WatchdogService: Service {
    let notifier: ServiceNotifier
    let store: KioskStore
    let triggers: TriggerService

    func run() async throws {
        guard let interval = notifier.watchdogInterval else {
            try? await gracefulShutdown()
            return
        }
        var lastStatus = ""
        while !Task.isCancelled, !Task.isShuttingDownGracefully {
            if let depth = try? await store.queueDepth() {
                notifier.watchdog()
                let status = "\(TriggerSet.summary(of: triggers.current.withLock { $0 })); \(depth) job(s) queued"
                if status != lastStatus { notifier.status(status) }
                lastStatus = status
            }
            do { try await cancelWhenGracefulShutdown { try await Task.sleep(for: interval) } } catch { return }
        }
    }
}
