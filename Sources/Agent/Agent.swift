public import KioskConfiguration
public import GPIO
public import Logging
import HTTPAPI
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
    /// The spooler's events as the HTTP API streams them; the spooler's report publishes into it.
    public let events: EventJournal
    /// The metrics `GET /metrics` serves; nil serves none (the tests' agents).
    public let metrics: AgentMetrics?
    /// Reads the configuration file again on SIGHUP; nil when the agent runs
    /// on built-in defaults (then SIGHUP changes nothing).
    let reload: (@Sendable () throws(ConfigurationError) -> AgentConfiguration)?

    public init(configuration: AgentConfiguration, intake: JobIntake, spooler: Spooler, gpio: any GPIOLines = Libgpiod(),
                logger: Logger, events: EventJournal = EventJournal(), metrics: AgentMetrics? = nil,
                reload: (@Sendable () throws(ConfigurationError) -> AgentConfiguration)?) {
        self.events = events
        self.metrics = metrics
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
        // READY=1 waits for the API's listeners, so that a POS started after the agent can connect at once.
        var exposition: (@Sendable () async -> String)?
        if let metrics {
            let store = intake.store, spooler = spooler
            exposition = { await metrics.exposition(store: store, spooler: spooler) }
        }
        let metricsText = exposition
        // A POS waits on the answer: its jobs are checked, not drawn, on the
        // request's path (the spooler draws them when it sends them).
        let makeServer: @Sendable (AgentConfiguration) -> APIServer = { [intake, events, logger] configuration in
            APIServer(settings: configuration.http, intake: intake.checkingOnly, journal: events, box: configuration.box,
                      logger: logger, metrics: metricsText)
        }
        let api = makeServer(configuration)
        // A reload's new [http] settings, for the API to serve from then on.
        let (httpChanges, httpChanged) = AsyncStream<AgentConfiguration>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let (listening, listened) = AsyncStream<Void>.makeStream()
        let triggers = TriggerService(agent: self, notifier: notifier,
                                      apiListening: APIListening(stream: listening, expected: api.listenerCount),
                                      httpChanged: httpChanged)
        var services: [ServiceGroupConfiguration.ServiceConfiguration] = [
                .init(service: SpoolerService(spooler: spooler, logger: logger), serviceName: "spooler"),
                .init(service: triggers, serviceName: "triggers"),
                .init(service: WatchdogService(notifier: notifier, store: intake.store, triggers: triggers,
                                               health: spooler.health, logger: logger), serviceName: "watchdog"),
                .init(service: RetentionService(store: intake.store, spoolFolder: intake.spoolFolder, logger: logger,
                                                settings: { triggers.current.withLock { $0.retention } }),
                      serviceName: "retention"),
        ]
        // The API is a way in, not the agent's work: if it cannot listen (the port is
        // taken), that is logged and the agent goes on printing from its folders and buttons.
        services.append(.init(service: HTTPService(first: api, changes: httpChanges, makeServer: makeServer, listened: listened,
                                                   logger: logger),
                              successTerminationBehavior: .ignore, failureTerminationBehavior: .ignore, serviceName: "http"))
        let group = ServiceGroup(configuration: ServiceGroupConfiguration(
            services: services,
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

/// The HTTP API's listeners coming up, for the agent's readiness.
struct APIListening: Sendable {
    let stream: AsyncStream<Void>
    let expected: Int

    /// Returns once every listener accepts connections, the API has failed, or 10 s
    /// have passed (a bound only: the agent must say ready even if the API is slow).
    func wait() async {
        guard expected > 0 else { return }
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                var seen = 0
                for await _ in stream {
                    seen += 1
                    if seen >= expected { return }
                }
            }
            group.addTask { try? await Task.sleep(for: .seconds(10)) }
            await group.next()
            group.cancelAll()
        }
    }
}

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

/// The configuration's triggers, replaced on SIGHUP by a good new configuration.
final class TriggerService: Service, Sendable {
    let agent: Agent
    let notifier: ServiceNotifier
    /// The configuration in force, for status lines and the watchdog.
    let current: Mutex<AgentConfiguration>

    let apiListening: APIListening
    /// Where a reload's new configuration goes when its `[http]` table changed.
    let httpChanged: AsyncStream<AgentConfiguration>.Continuation

    init(agent: Agent, notifier: ServiceNotifier, apiListening: APIListening,
         httpChanged: AsyncStream<AgentConfiguration>.Continuation) {
        self.agent = agent
        self.notifier = notifier
        self.apiListening = apiListening
        self.httpChanged = httpChanged
        current = Mutex(agent.configuration)
    }

    func run() async throws {
        let hangups = await UnixSignalsSequence(trapping: .sighup)
        var running = start(agent.configuration)
        await apiListening.wait()
        let queued = (try? await agent.intake.store.queueDepth()) ?? 0
        notifier.ready(status: "\(running.set.summary); \(queued) job(s) queued")
        agent.logger.notice(Logger.Message(stringLiteral: "kioskprint agent ready: \(running.set.summary), box \(agent.configuration.box), "
            + "database \(agent.intake.store.path)"))
        for warning in await UnpinnedPrinters.warnings(in: agent.intake.store) {
            agent.logger.warning(Logger.Message(stringLiteral: warning))
        }
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
            let previous = current.withLock { $0 }
            if next.database != previous.database || next.logLevel != previous.logLevel {
                agent.logger.notice("SIGHUP: database and log-level changes take effect at the next start.")
            }
            // The certificate's files may have been renewed in place: TLS is loaded again at every reload.
            if next.http != previous.http || next.box != previous.box || next.http.tlsCertificate != nil { httpChanged.yield(next) }
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
