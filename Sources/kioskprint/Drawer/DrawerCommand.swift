import ArgumentParser
import CommandLineOutput
import PrintModel
import Spooler
import Store

/// `kioskprint drawer ...`: the cash drawer wired to a role's receipt printer.
struct DrawerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "drawer",
        abstract: "Open the cash drawer wired to a role's receipt printer.",
        subcommands: [DrawerOpenCommand.self])
}

/// `kioskprint drawer open ROLE`: one pulse on the drawer port of the role's primary printer.
struct DrawerOpenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "open",
        abstract: "Pulse the drawer port of the role's primary printer, and say whether the drawer reads open.",
        discussion: """
        The drawer is wired to the DK port of a raw receipt printer (ESC/POS over socket://, \
        usb:// or serial://), which drives pin 2. Exits with status 1 when no pulse could be sent: \
        no printer for the role, an IPP printer, no drawer port, or the printer unreachable.
        """)

    @Argument(help: "The role whose printer the drawer is wired to, e.g. receipt.")
    var role: Role

    @Option(help: "Seconds to wait for the printer.")
    var timeout: Double = 5

    @OptionGroup var storage: DatabaseOptions

    func run() async throws {
        let opened: CashDrawer.Opened
        do {
            let drawer = CashDrawer(store: try storage.openExisting(), channels: .standard(timeout: seconds(timeout)))
            opened = try await drawer.open(role: role)
        } catch {
            throw CLIError(error)
        }
        let name = opened.printer.name
        switch opened.outcome {
        case .pulsed(open: true):
            print("Opened the cash drawer on \(name) (it reads open).")
        case .pulsed(open: false):
            // The switch is read right after the pulse; a drawer may take a moment to spring open.
            print("Sent the opening pulse to the cash drawer on \(name); it still reads closed. If it did not open, "
                + "check the drawer's cable in the printer's DK port and that the drawer is not locked.")
        case .pulsed(open: nil):
            print("Sent the opening pulse to the cash drawer on \(name) (it does not report whether the drawer is open).")
        case .unsupported(let why):
            throw CLIError("The cash drawer for the role '\(role)' cannot be opened: \(why)")
        case .failed(let why):
            throw CLIError("The cash drawer on \(name) could not be opened: \(why)")
        }
    }
}
