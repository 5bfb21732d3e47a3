import Foundation
public import KioskConfiguration
import PrintModel
public import GPIO
public import Logging
import HTTPAPI
import RawRolePrinters
import RolePrinters
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
    /// The role printers' Identify-Printer `flash`, reaching the lights of the configuration in force.
    let flashes = LightFlashes()

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
        let startedAt = Date()
        // The role printers a configuration serves: for the listener, and for DNS-SD's records.
        let rolePrinters: @Sendable (AgentConfiguration, Set<Role>) -> RolePrinterServer = { [intake, flashes, spooler] configuration, roles in
            let http = configuration.http
            let moreInfo = http.listen.map { "\(http.tlsCertificate == nil ? "http" : "https")://\($0)/" }
            let identity = RolePrinterIdentity(box: configuration.box, moreInfo: moreInfo, startedAt: startedAt,
                                               requiresToken: configuration.ipp.requireToken, maxDocumentBytes: Int(http.maxBody))
            return RolePrinterServer(intake: intake.checkingOnly, canceller: JobCanceller(store: intake.store),
                                     roles: roles, identity: identity, signals: flashes,
                                     conditions: { spooler.printerConditions() })
        }
        // The roles a configuration serves, and the certificate of ipps://. Never served without TLS where
        // TLS is asked for: none until the certificate can be had (said in the log when `log` is given).
        let served: @Sendable (AgentConfiguration, Logger?) -> (roles: Set<Role>, certificate: AgentCertificate?) = { [intake] configuration, log in
            guard configuration.servesRolePrinters, configuration.ipp.tls else {
                return (configuration.ippRoles, nil)
            }
            do {
                return (configuration.ippRoles, try RolePrinterCertificate.resolve(configuration.ipp, databasePath: intake.store.path,
                                                                                   logger: log))
            } catch {
                log?.error("The role printers are not served: \(error)")
                return ([], nil)
            }
        }
        let makeServer: @Sendable (AgentConfiguration) -> Listeners = { [intake, events, logger, spooler] configuration in
            let http = configuration.http
            let (roles, certificate) = served(configuration, logger)
            let printers = rolePrinters(configuration, roles)
            let status = RoleStatus(store: intake.store, conditions: { spooler.printerConditions() })
            // ePOS-Print and WebPRNT are served only where TLS, when asked for, could be had (as the IPP role printers).
            let withoutTLS = configuration.ipp.tls && certificate == nil
            let epos = withoutTLS ? [:] : configuration.eposRoles
            let api = APIServer(settings: http, intake: intake.checkingOnly, journal: events, box: configuration.box,
                                logger: logger, metrics: metricsText, ipp: configuration.ipp, rolePrinters: printers,
                                rolePrinterCertificate: certificate, eposDevices: epos, epos: configuration.epos,
                                webprntRoles: withoutTLS ? [] : configuration.webprntRoles, webprnt: configuration.webprnt, roleStatus: status)
            let raw = RawRolePrinters(roles: configuration.rawRoles, keeper: RawJobKeeper(intake: intake.checkingOnly),
                                      status: status, logger: logger)
            return Listeners(api: api, raw: raw)
        }
        let api = makeServer(configuration)
        // A reload's new [http] settings, for the API to serve from then on.
        let (httpChanges, httpChanged) = AsyncStream<AgentConfiguration>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let (listening, listened) = AsyncStream<Void>.makeStream()
        let triggers = TriggerService(agent: self, notifier: notifier,
                                      apiListening: APIListening(stream: listening, expected: api.count),
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
        let announcements = AnnouncementService(configuration: { triggers.current.withLock { $0 } },
                                                printers: { rolePrinters($0, served($0, nil).roles) },
                                                rawStatus: RoleStatus(store: intake.store, conditions: { [spooler] in spooler.printerConditions() }),
                                                logger: logger)
        services.append(.init(service: announcements, successTerminationBehavior: .ignore, failureTerminationBehavior: .ignore,
                              serviceName: "dns-sd"))
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
