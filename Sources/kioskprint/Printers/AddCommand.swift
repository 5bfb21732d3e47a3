import ArgumentParser
import PrintModel
import Setup
import Store

/// `kioskprint printers add URI --role ROLE`: the picker without a terminal, for provisioning scripts.
struct AddCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Save the printer at URI under a role, after contacting it.",
        discussion: """
        The printer is contacted first; one that does not answer, or whose kinds the role \
        does not accept (a label printer as the receipt printer), is refused with the reason \
        unless --force is given. Without --backup the printer becomes the role's primary, \
        replacing the one before it; with --backup it is added after the existing ones.
        """)

    @Argument(help: "The printer's URI, e.g. ipp://192.168.1.40:631/ipp/print.")
    var uri: String

    @OptionGroup var choice: RoleChoice

    @Flag(help: "Save it even if it does not answer or is not of a kind the role accepts.")
    var force = false

    @OptionGroup var storage: DatabaseOptions

    func run() async throws {
        do {
            let setup = RoleSetup(store: try storage.open(), contactTimeout: seconds(choice.timeout))
            let added = try await setup.add(uri: uri, role: choice.role, as: choice.place, force: force)
            for reason in added.overridden { print("Warning (saved anyway with --force): \(reason)") }
            print(AssignmentReport.saved(added))
        } catch {
            throw CLIError(error)
        }
    }
}

/// The sentences that confirm a saved printer, shared by `add` and `pick`.
enum AssignmentReport {
    static func saved(_ added: RoleSetup.Added) -> String {
        let assignment = added.assignment
        var text = "Saved \(assignment.printer.name) (\(assignment.printer.uri)) as the \(assignment.rank) printer for the role '\(assignment.role)'."
        if let replaced = added.replaced {
            text += "\nIt replaces \(replaced.name) (\(replaced.uri)), which no longer serves '\(assignment.role)'."
        }
        return text
    }
}
