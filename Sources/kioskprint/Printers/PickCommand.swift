import ArgumentParser
import CommandLineOutput
import Foundation
import IPP
import PrintModel
import Setup
import Store

/// `kioskprint printers pick --role ROLE`: the interactive picker
/// (Apple's UIPrinterPickerController) for a terminal.
struct PickCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pick",
        abstract: "Choose a printer for a role from a live list, interactively.",
        discussion: """
        Printers appear and disappear as they are announced. For a built-in role only the \
        kinds it accepts are shown (a receipt role shows receipt and roll printers); --kind \
        chooses the kinds yourself. Type the printer's number and Enter; it is contacted, \
        its capabilities shown, and saved when you confirm. q, Escape or Ctrl-C cancels \
        and leaves the saved printers untouched. Scripts use `printers add` instead.
        """)

    @OptionGroup var choice: RoleChoice

    @Option(name: .customLong("kind"), parsing: .singleValue,
            help: "Show only printers of this kind (repeatable). Default: the kinds the role accepts.")
    var kinds: [JobKind] = []

    @OptionGroup var storage: DatabaseOptions

    func run() async throws {
        let role = choice.role
        guard let terminal = RawTerminal() else {
            throw CLIError("printers pick needs a terminal to ask you which printer to use. "
                + "In a script, use: kioskprint printers add URI --role \(role)")
        }
        defer { terminal.restore() }
        let store: KioskStore
        do { store = try storage.open() } catch { terminal.restore(); throw CLIError(error) }
        let wanted = kinds.isEmpty ? role.acceptedKinds : Set(kinds)
        let session = PickerSession(terminal: terminal, role: role, kinds: wanted, backup: choice.backup,
                                    setup: RoleSetup(store: store, contactTimeout: seconds(choice.timeout)))
        let outcome: PickerSession.Outcome
        do {
            outcome = try await session.run()
        } catch {
            terminal.restore()
            throw CLIError(error)
        }
        terminal.restore()
        switch outcome {
        case .saved(let added):
            print(AssignmentReport.saved(added))
        case .cancelled:
            print("Cancelled: nothing was saved.")
            throw ExitCode(1)
        }
    }
}
