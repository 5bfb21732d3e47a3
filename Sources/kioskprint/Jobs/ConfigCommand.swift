import Agent
import ArgumentParser
import Configuration
import Foundation
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

        func run() throws {
            guard let file = ConfigurationFile.locate(explicit: path) else {
                throw CLIError("There is no configuration file at \(ConfigurationFile.defaultPath) and $KIOSKPRINT_CONFIG is not set; "
                    + "the agent would run on built-in defaults. Give a file to check, e.g. `kioskprint config check kiosk-config/queue-ticket/kioskprint.toml`.")
            }
            let configuration = try RunCommand.load(file)
            let catalog = templates.folders.isEmpty
                ? TemplateCatalog(folders: configuration.templateFolders ?? TemplateCatalog.defaultFolders())
                : templates.catalog
            let problems = MachineCheck.problems(in: configuration, catalog: catalog)
            guard problems.isEmpty else {
                throw CLIError(ConfigurationError(path: file, problems: problems).description)
            }
            print("\(file): OK. Box \"\(configuration.box)\"; "
                + "\(configuration.folders.count) folder(s), \(configuration.buttons.count) button(s), \(configuration.lights.count) light(s); "
                + "roles: \(configuration.roles.map(\.name).sorted().joined(separator: ", ")).")
        }
    }
}
