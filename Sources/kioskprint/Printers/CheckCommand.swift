import ArgumentParser
import CommandLineOutput
import PrintModel
import RawPrinters
import Setup
import Store

/// `kioskprint printers check [ROLE]`: contact every saved printer now.
struct CheckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Contact the saved printers now: reachable or not, their state and what needs attention.",
        discussion: """
        Exits with status 1 when a printer is unreachable, needs attention or presents another TLS \
        certificate than the one pinned, so monitoring can run it. An ipps printer saved before \
        certificates were pinned is pinned here, with the certificate it presents (the output says so).
        """)

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
            results = try await RoleSetup(store: try storage.openExisting(), contactTimeout: seconds(timeout), usbPrinters: .fromEnvironment).check(role: role)
        } catch {
            throw CLIError(error)
        }
        if json {
            print(try JSONOutput.encode(results.map { AssignmentJSON($0) }))
        } else if results.isEmpty {
            let none = role.map { "No printer is saved for the role '\($0)'." } ?? "No printers saved yet."
            print(none + " Pick one with: kioskprint printers pick --role \(role?.name ?? "receipt")")
        } else {
            print(CheckTable.render(results))
        }
        if results.contains(where: { !$0.isReady }) { throw ExitCode(1) }
    }
}
