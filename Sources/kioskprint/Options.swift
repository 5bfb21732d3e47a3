import CommandLineOutput
import Foundation
public import ArgumentParser
public import PrintModel
import Store
import Templates

/// `--database PATH`, shared by every command that reads or writes saved printers.
struct DatabaseOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "The database file.",
        discussion: "Default: $KIOSKPRINT_DATABASE, else /var/lib/kioskprint/kioskprint.sqlite for root and the service, else ~/.local/state/kioskprint/kioskprint.sqlite.",
        valueName: "path"))
    var database: String?

    /// The store, opened for one command (``KioskStore/Use/command``); made
    /// if it does not exist, for the commands that save something new.
    func open() throws -> KioskStore {
        try KioskStore(path: DatabaseLocation.resolve(explicit: database), use: .command)
    }

    /// The store for a command that reads or changes what is saved already: a
    /// path with no database (a mistyped `--database`) is said so, and nothing
    /// is created, instead of an empty database that has no printers, jobs or tokens.
    func openExisting() throws -> KioskStore {
        let path = DatabaseLocation.resolve(explicit: database)
        guard FileManager.default.fileExists(atPath: path) else {
            let service = DatabaseLocation.serviceDirectory + "/" + DatabaseLocation.fileName
            throw CLIError("There is no database at \(path), so there is nothing to read there; nothing was created. "
                + (path == service ? "The agent makes it at its first start (systemctl start kioskprint), or save a printer first "
                    + "(kioskprint printers pick --role receipt)."
                   : "Check the path; the service's database is \(service) (as root, leave --database out to use it)."))
        }
        return try open()
    }
}

/// Which role a printer is saved under, and where in it: shared by `add` and `pick`.
struct RoleChoice: ParsableArguments {
    @Option(help: "The role it serves: receipt, coupon, label, boarding-pass, bag-tag, or a name of your own.")
    var role: Role

    @Flag(help: "Add it as a backup, after the primary and existing backups, instead of replacing the primary.")
    var backup = false

    @Option(help: "Seconds to wait for the printer to answer.")
    var timeout: Double = 5

    var place: RolePlace { backup ? .backup : .primary }
}

extension JobKind: ExpressibleByArgument {
    public init?(argument: String) { self.init(rawValue: argument.lowercased()) }
    public static var allValueStrings: [String] { allCases.map(\.rawValue) }
}

extension RawDelivery: ExpressibleByArgument {}

extension Role: ExpressibleByArgument {
    public init?(argument: String) { try? self.init(argument) }
}

/// Seconds given on the command line, as a Duration.
func seconds(_ value: Double) -> Duration { .milliseconds(Int((value * 1000).rounded())) }

extension Length: ExpressibleByArgument {
    public init?(argument: String) { try? self.init(parsing: argument) }
}

/// `--templates DIR`: where custom templates are looked up before the built-ins.
struct TemplateFolderOptions: ParsableArguments {
    @Option(name: .customLong("templates"), help: ArgumentHelp(
        "A folder of custom templates (NAME.xml, with NAME.sample.json and images beside it); repeat for several.",
        discussion: "Default: $KIOSKPRINT_TEMPLATES, else /etc/kioskprint/templates when it exists. A custom template replaces the built-in of the same name.",
        valueName: "dir"))
    var folders: [String] = []

    var catalog: TemplateCatalog { catalog(configured: nil) }

    /// The folders given here, else those the agent's configuration names,
    /// else the defaults: the command line wins, so a test or a second
    /// agent can point elsewhere.
    func catalog(configured: [String]?) -> TemplateCatalog {
        TemplateCatalog(folders: folders.isEmpty ? configured ?? TemplateCatalog.defaultFolders() : folders)
    }
}
