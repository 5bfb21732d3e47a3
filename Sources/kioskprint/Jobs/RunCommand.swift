import Agent
import ArgumentParser
import CommandLineOutput
import KioskConfiguration
import Foundation
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
        let catalog = templates.catalog(configured: configuration.templateFolders)
        let problems = MachineCheck.problems(in: configuration, catalog: catalog)
        guard problems.isEmpty else {
            throw Refused(ConfigurationError(path: configPath ?? "configuration", problems: problems))
        }
        let databasePath = DatabaseLocation.resolve(explicit: database.database ?? configuration.database)
        let agent: Agent
        do { agent = try Agent.make(configuration: configuration, configurationPath: configPath, databasePath: databasePath,
                                    catalog: catalog) } catch let error as AgentStartError { throw CLIError(error.description) }
        try await agent.run()
        agent.logger.notice("kioskprint agent stopped; the queue is kept.")
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
