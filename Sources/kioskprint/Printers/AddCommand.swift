import ArgumentParser
import CommandLineOutput
import PrintModel
import RawPrinters
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

        A raw printer (socket://HOST[:PORT], usb://MAKE/MODEL?serial=SERIAL, \
        serial:///dev/ttyUSB0?baud=115200) cannot say what it can do: give its --model \
        from the catalog (a USB printer's own model is used when left out), and override \
        or describe it with --width, --printable, --dpi, --language and --cutter. It is \
        contacted by asking its status in its own language (ESC/POS or ZPL II).
        """)

    @Argument(help: "The printer's URI, e.g. ipp://192.168.1.40:631/ipp/print or socket://192.168.1.50:9100.")
    var uri: String

    @OptionGroup var choice: RoleChoice

    @OptionGroup(title: "Raw printers") var raw: RawPrinterOptions

    @Flag(help: "Save it even if it does not answer or is not of a kind the role accepts.")
    var force = false

    @OptionGroup var storage: DatabaseOptions

    func run() async throws {
        do {
            let setup = RoleSetup(store: try storage.open(), contactTimeout: seconds(choice.timeout),
                                  usbPrinters: .fromEnvironment)
            let added = try await setup.add(uri: uri, role: choice.role, as: choice.place, force: force,
                                            model: raw.model, overrides: raw.overrides)
            if raw.isGiven, added.assignment.printer.capabilities.rawProfile == nil {
                print("Note: --model, --width, --printable, --dpi, --language and --cutter describe raw printers; "
                    + "\(uri) is an IPP printer, which says what it can do itself, so they were not used.")
            }
            for reason in added.overridden { print("Warning (saved anyway with --force): \(reason)") }
            if let implausible = added.assignment.printer.capabilities.implausible, added.overridden.isEmpty {
                print("Warning: \(added.assignment.printer.name) reported figures no printer has, left out: "
                    + implausible.joined(separator: "; ") + ". Check its firmware if its pages look wrong.")
            }
            print(AssignmentReport.saved(added))
        } catch {
            throw CLIError(error)
        }
    }
}
