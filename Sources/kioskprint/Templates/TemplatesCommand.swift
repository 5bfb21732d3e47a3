import ArgumentParser
import Foundation
import Templates

/// `kioskprint templates ...`: the integrator's tools for template files.
struct TemplatesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "templates",
        abstract: "Check template files.",
        subcommands: [CheckTemplateCommand.self])
}

/// `kioskprint templates check FILE...`.
struct CheckTemplateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check template files and report every problem with its line and column.",
        discussion: "The markup is described in docs/TEMPLATES.md. Exits with status 1 when a file has a problem.")

    @Argument(help: "Template files (.xml).")
    var files: [String]

    func run() async throws {
        var failed = false
        for file in files {
            let text: String
            do {
                text = try String(contentsOfFile: file, encoding: .utf8)
            } catch {
                print("\(file): cannot be read (\(error.localizedDescription)); check the path and its permissions.")
                failed = true
                continue
            }
            do {
                _ = try TemplateParser.parse(text, file: file)
                print("\(file): OK")
            } catch {
                print(error.description)
                failed = true
            }
        }
        if failed { throw ExitCode(1) }
    }
}
