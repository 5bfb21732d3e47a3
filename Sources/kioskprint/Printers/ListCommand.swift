import ArgumentParser
import CommandLineOutput
import Foundation
import PrintModel
import Store

/// `kioskprint printers list`: the saved printers by role.
struct ListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "Show the saved printers, role by role, primary first.",
        discussion: "The state shown is the one found at the last contact; `printers check` contacts them now.")

    @Flag(help: "Print JSON for scripts instead of a table.")
    var json = false

    @OptionGroup var storage: DatabaseOptions

    func run() async throws {
        let assignments: [RoleAssignment]
        do {
            let store = try storage.openExisting()
            assignments = try await store.assignments()
        } catch {
            throw CLIError(error)
        }
        if json {
            print(try JSONOutput.encode(assignments.map { AssignmentJSON($0) }))
            return
        }
        guard !assignments.isEmpty else {
            print("No printers saved yet. Pick one with: kioskprint printers pick --role receipt")
            return
        }
        print(AssignmentTable.render(assignments))
    }
}
