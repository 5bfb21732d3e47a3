public import KioskConfiguration
import Logging
import Memory
import Setup
import Spooler
import Store
public import Templates

/// Why an agent could not be assembled; its description says what to do.
public struct AgentStartError: Error, CustomStringConvertible {
    public let description: String
}

extension Agent {
    /// The agent `kioskprint run` runs, assembled from its configuration:
    /// the database and its lock, the spooler's settings, the hand-over of
    /// drawings from intake to spooler, the idle memory release and the
    /// memory ceiling, the event journal, the log and the metrics.
    ///
    /// Call it once per process: it bootstraps swift-log and swift-metrics,
    /// which allow one bootstrap each. The lock on `agent.lock` beside the
    /// database is held until the process exits.
    ///
    /// - Parameters:
    ///   - configuration: the settings in force, already checked (`MachineCheck`).
    ///   - configurationPath: the file SIGHUP reads again; nil runs on built-in defaults.
    ///   - databasePath: the queue's database, made if missing.
    ///   - catalog: the templates the configuration's folders and the built-ins make.
    /// - Throws: `AgentStartError` when another agent holds the database's lock.
    public static func make(configuration: AgentConfiguration, configurationPath: String?, databasePath: String,
                            catalog: TemplateCatalog) throws -> Agent {
        let level = Logger.Level(configuration.logLevel)
        LoggingSystem.bootstrap { _ in AgentLogHandler(level: level) }
        let logger = Logger(label: "kioskprint")

        let store = try KioskStore(path: databasePath)
        guard AgentLock(databasePath: databasePath).acquire() != nil else {
            throw AgentStartError(description: "Another kioskprint agent is already running for \(databasePath). "
                + "Stop it first, or give this one its own --database.")
        }
        // The lock's descriptor stays open for the process's life: it is the lock.

        let events = EventJournal()
        let metrics = AgentMetrics.bootstrap()
        // One preparer for the intake and the spooler: a job taken in is drawn
        // once, for the role's printer, and sent as drawn.
        let preparer = DocumentPreparer(catalog: catalog, drawnAhead: DrawnDocuments(),
                                        rawDelivery: configuration.roleSettings.compactMapValues(\.delivery))
        let spooler = Spooler(store: store, preparer: preparer,
                              configuration: spoolerSettings(configuration, store: store, logger: logger),
                              report: { event in
                                  logger.log(level: event.logLevel, "\(event.description)", metadata: event.logMetadata)
                                  events.publish(event)
                                  metrics.record(event)
                              },
                              locate: { printer in await PrinterRelocator().find(printer) })
        if configurationPath == nil {
            logger.notice("no configuration file (\(ConfigurationFile.defaultPath) does not exist): printing queued jobs, watching nothing.")
        }
        var reload: (@Sendable () throws(ConfigurationError) -> AgentConfiguration)?
        if let configurationPath {
            reload = { () throws(ConfigurationError) in try ConfigurationFile.load(configurationPath) }
        }
        return Agent(configuration: configuration, intake: JobIntake(store: store, catalog: catalog, preparer: preparer),
                     spooler: spooler, logger: logger, events: events, metrics: metrics, reload: reload)
    }

    /// The spooler's settings from the configuration, with what the agent
    /// does between jobs: the idle release once a role's queue stays dry, and
    /// the memory ceiling's check after each job.
    static func spoolerSettings(_ configuration: AgentConfiguration, store: KioskStore, logger: Logger) -> SpoolerConfiguration {
        var settings = SpoolerConfiguration()
        settings.failoverGrace = configuration.failoverAfter
        settings.idlePoll = configuration.lookEvery
        let idleRelease = IdleMemoryRelease(store: store, logger: logger)
        settings.whenIdleAfterWork = { await idleRelease.run() }
        let ceiling = MemoryCeiling()
        settings.afterJob = { ceiling.check() }
        settings.unknownFate = configuration.roleSettings.compactMapValues(\.unknownFate)
        settings.cutStyle = configuration.roleSettings.compactMapValues(\.cutStyle)
        settings.mediaChanges = configuration.roleSettings.compactMapValues(\.mediaChanges)
        return settings
    }
}

extension Logger.Level {
    /// The log level the configuration's `log-level` names.
    init(_ name: LogLevelName) {
        switch name {
        case .debug: self = .debug
        case .info: self = .info
        case .notice: self = .notice
        case .warning: self = .warning
        case .error: self = .error
        }
    }
}
