import ArgumentParser
import PrintModel
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
            results = try await RoleSetup(store: try storage.open(), contactTimeout: seconds(timeout)).check(role: role)
        } catch {
            throw CLIError(error)
        }
        if json {
            print(try JSONOutput.encode(results.map { AssignmentJSON($0.assignment, checked: $0.result) }))
        } else if results.isEmpty {
            let none = role.map { "No printer is saved for the role '\($0)'." } ?? "No printers saved yet."
            print(none + " Pick one with: kioskprint printers pick --role \(role?.name ?? "receipt")")
        } else {
            var table = TextTable("ROLE", "RANK", "NAME", "STATE", "URI")
            var problems: [String] = []
            for checked in results {
                let assignment = checked.assignment
                let state: String
                switch checked.result {
                case .success(let capabilities):
                    let reasons = capabilities.stateReasons.map(\.keyword).filter { $0 != "none" }
                    state = capabilities.state.rawValue + (reasons.isEmpty ? "" : " (\(reasons.joined(separator: ", ")))")
                    if !checked.isReady {
                        problems.append("\(assignment.printer.name) needs attention: \(state).")
                    }
                case .failure(let error):
                    state = "unreachable"
                    problems.append(error.description)
                }
                table.add(assignment.role.name, assignment.rank, assignment.printer.name, state, assignment.printer.uri)
            }
            print(table.render())
            if !problems.isEmpty { print("\n" + Array(Set(problems)).sorted().joined(separator: "\n")) }
        }
        if results.contains(where: { !$0.isReady }) { throw ExitCode(1) }
    }
}
