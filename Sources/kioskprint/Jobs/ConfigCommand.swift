import Agent
import ArgumentParser
import CommandLineOutput
import KioskConfiguration
import Foundation
import Store
import Templates

/// `kioskprint config check`: the configuration file read as the agent reads it.
struct ConfigCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config",
        abstract: "Check the agent's configuration file.",
        subcommands: [Check.self])

    struct Check: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "check",
            abstract: "Read a configuration file as `kioskprint run` would and report every problem, with its key.",
            discussion: "Checks the TOML, every key and value, that the watched folders exist and are writable, and that the templates named exist. GPIO lines are only opened by the agent itself.")

        @Argument(help: ArgumentHelp("The file (default: $KIOSKPRINT_CONFIG, else /etc/kioskprint/kioskprint.toml).", valueName: "path"))
        var path: String?

        @OptionGroup var templates: TemplateFolderOptions
        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            guard let file = ConfigurationFile.locate(explicit: path) else {
                throw CLIError("There is no configuration file at \(ConfigurationFile.defaultPath) and $KIOSKPRINT_CONFIG is not set; "
                    + "the agent would run on built-in defaults. Give a file to check, e.g. `kioskprint config check kiosk-config/queue-ticket/kioskprint.toml`.")
            }
            let configuration: AgentConfiguration
            do { configuration = try RunCommand.load(file) } catch let refused as RunCommand.Refused {
                throw CLIError(refused.error.description)
            }
            let catalog = templates.catalog(configured: configuration.templateFolders)
            let problems = MachineCheck.problems(in: configuration, catalog: catalog)
            guard problems.isEmpty else {
                throw CLIError(ConfigurationError(path: file, problems: problems).description)
            }
            print("\(file): OK. Box \"\(configuration.box)\"; "
                + "\(configuration.folders.count) folder(s), \(configuration.buttons.count) button(s), \(configuration.lights.count) light(s); "
                + "roles: \(configuration.roles.map(\.name).sorted().joined(separator: ", ")).")
            // A role with no printer is not an error (printers are often picked after the file is
            // written; its jobs wait), but a misspelt role looks exactly like one, so say so.
            let store = try KioskStore(path: DatabaseLocation.resolve(explicit: database.database ?? configuration.database), use: .command)
            let assigned = Set(try await store.assignments().map(\.role))
            for role in configuration.roles.sorted(by: { $0.name < $1.name }) where !assigned.contains(role) {
                print("Note: no printer holds the role \(role) yet; its jobs will wait. "
                    + "Pick one with `kioskprint printers pick --role \(role)`, or check the spelling.")
            }
        }
    }
}
