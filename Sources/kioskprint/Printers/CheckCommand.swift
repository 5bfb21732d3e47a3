import ArgumentParser
import PrintModel
import RawConnections
import Setup
import Store

/// `kioskprint printers check [ROLE]`: contact every saved printer now.
struct CheckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Contact the saved printers now: reachable or not, their state and what needs attention.",
        discussion: "Exits with status 1 when a printer is unreachable or needs attention, so monitoring can run it.")

    @Argument(help: "Check only this role's printers.")
    var role: Role?

    @Option(help: "Seconds to wait for each printer.")
    var timeout: Double = 5

    @Flag(help: "Print JSON for scripts instead of a table.")
    var json = false

    @OptionGroup var storage: DatabaseOptions

    func run() async throws {
        let results: [RoleSetup.Checked]
        do {
            results = try await RoleSetup(store: try storage.open(), contactTimeout: seconds(timeout), usbPrinters: .fromEnvironment).check(role: role)
        } catch {
            throw CLIError(error)
        }
        if json {
            print(try JSONOutput.encode(results.map { AssignmentJSON($0.assignment, checked: $0.result) }))
        } else if results.isEmpty {
            let none = role.map { "No printer is saved for the role '\($0)'." } ?? "No printers saved yet."
            print(none + " Pick one with: kioskprint printers pick --role \(role?.name ?? "receipt")")
        } else {
            print(CheckTable.render(results))
        }
        if results.contains(where: { !$0.isReady }) { throw ExitCode(1) }
    }
}
