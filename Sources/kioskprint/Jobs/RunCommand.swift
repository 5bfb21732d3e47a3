import Agent
import ArgumentParser
import CommandLineOutput
import KioskConfiguration
import Foundation
import Logging
import Service
import Setup
import Spooler
import Store
import Templates

/// `kioskprint run`: the agent.
struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run the agent: watch folders and buttons, show printer lights, and print queued jobs until stopped.",
        discussion: """
        The configuration file (docs/CONFIGURATION.md) is --config, else $KIOSKPRINT_CONFIG, else \
        /etc/kioskprint/kioskprint.toml; without one the agent prints queued jobs and watches nothing. \
        A configuration with a problem is refused with the key and the reason (exit status 78). \
        SIGHUP reloads it (a bad one is logged and the one in force stays); SIGTERM or Ctrl-C stops \
        the agent and keeps the queue. Only one agent runs per database.
        """)

    @Option(help: ArgumentHelp("The configuration file.", valueName: "path"))
    var config: String?

    @OptionGroup var templates: TemplateFolderOptions
    @OptionGroup var database: DatabaseOptions

    func run() async throws {
        do { try await runAgent() } catch let refused as Refused {
            FileHandle.standardError.write(Data((refused.error.description
                + "\nThe agent did not start: correct the configuration (`kioskprint config check` shows every problem).\n").utf8))
            throw ExitCode(78)
        }
    }

    private func runAgent() async throws {
        let configPath = ConfigurationFile.locate(explicit: config)
        let configuration = try Self.load(configPath)
        let level = Logger.Level(configuration.logLevel)
        LoggingSystem.bootstrap { _ in AgentLogHandler(level: level) }
        let logger = Logger(label: "kioskprint")

        let catalog = templates.catalog(configured: configuration.templateFolders)
        let problems = MachineCheck.problems(in: configuration, catalog: catalog)
        guard problems.isEmpty else {
            throw Refused(ConfigurationError(path: configPath ?? "configuration", problems: problems))
        }
        let path = DatabaseLocation.resolve(explicit: database.database ?? configuration.database)
        let store = try KioskStore(path: path)
        guard let lock = AgentLock(databasePath: path).acquire() else {
            throw CLIError("Another kioskprint agent is already running for \(path). Stop it first, or give this one its own --database.")
        }
        defer { close(lock) }

        var spoolerSettings = SpoolerConfiguration()
        spoolerSettings.failoverGrace = configuration.failoverAfter
        spoolerSettings.idlePoll = configuration.lookEvery
        let idleRelease = IdleMemoryRelease(store: store, logger: logger)
        spoolerSettings.whenIdleAfterWork = { await idleRelease.run() }
        let ceiling = MemoryCeiling()
        spoolerSettings.afterJob = { ceiling.check() }
        spoolerSettings.unknownFate = configuration.roleSettings.compactMapValues(\.unknownFate)
        spoolerSettings.cutStyle = configuration.roleSettings.compactMapValues(\.cutStyle)
        spoolerSettings.mediaChanges = configuration.roleSettings.compactMapValues(\.mediaChanges)
        let events = EventJournal()
        // Once per process, here and not in library code: swift-metrics allows a single bootstrap.
        let metrics = AgentMetrics.bootstrap()
        // One preparer for the intake and the spooler: a job taken in is drawn
        // once, for the role's printer, and sent as drawn.
        let preparer = DocumentPreparer(catalog: catalog, drawnAhead: DrawnDocuments())
        let spooler = Spooler(store: store, preparer: preparer, configuration: spoolerSettings,
                              report: { event in
                                  logger.log(level: event.logLevel, "\(event.description)", metadata: event.logMetadata)
                                  events.publish(event)
                                  metrics.record(event)
                              },
                              locate: { printer in await PrinterRelocator().find(printer) })
        if configPath == nil {
            logger.notice("no configuration file (\(ConfigurationFile.defaultPath) does not exist): printing queued jobs, watching nothing.")
        }
        var reload: (@Sendable () throws(ConfigurationError) -> AgentConfiguration)?
        if let configPath {
            reload = { () throws(ConfigurationError) in try ConfigurationFile.load(configPath) }
        }
        let agent = Agent(configuration: configuration, intake: JobIntake(store: store, catalog: catalog, preparer: preparer), spooler: spooler,
                          logger: logger, events: events, metrics: metrics, reload: reload)
        try await agent.run()
        logger.notice("kioskprint agent stopped; the queue is kept.")
    }

    /// The configuration file's settings, or the built-in defaults without one.
    static func load(_ path: String?) throws -> AgentConfiguration {
        guard let path else { return AgentConfiguration() }
        do { return try ConfigurationFile.load(path) } catch { throw Refused(error) }
    }

    /// A configuration refused at start: every problem on standard error,
    /// and exit status 78 (EX_CONFIG), which the unit's
    /// RestartPreventExitStatus keeps systemd from retrying in a loop.
    struct Refused: Error {
        let error: ConfigurationError
        init(_ error: ConfigurationError) { self.error = error }
    }
}

extension Logger.Level {
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
