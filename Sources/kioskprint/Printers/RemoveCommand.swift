import ArgumentParser
import CommandLineOutput
import PrintModel
import Store

/// `kioskprint printers remove PRINTER [--role ROLE]`.
struct RemoveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove",
        abstract: "Take a saved printer out of a role, or out of every role.",
        discussion: "A printer left with no role is forgotten. The backups behind it move up.")

    @Argument(help: "The printer: its ID, name or URI, as `printers list` shows them.")
    var printer: String

    @Option(help: "Remove it from this role only.")
    var role: Role?

    @OptionGroup var storage: DatabaseOptions

    func run() async throws {
        do {
            let store = try storage.open()
            let saved = try await store.findPrinter(printer)
            let left = try await store.remove(printerID: saved.id, from: role)
            if left.isEmpty, let role {
                throw CLIError("\(saved.name) does not serve the role '\(role)'. See the roles with: kioskprint printers list")
            }
            let roles = left.map { "'\($0)'" }.joined(separator: ", ")
            print("Removed \(saved.name) (\(saved.uri))" + (left.isEmpty ? "." : " from \(roles)."))
        } catch let error as CLIError {
            throw error
        } catch {
            throw CLIError(error)
        }
    }
}
