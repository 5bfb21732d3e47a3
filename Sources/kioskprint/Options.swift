public import ArgumentParser
public import PrintModel
import Store

/// `--database PATH`, shared by every command that reads or writes saved printers.
struct DatabaseOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "The database file.",
        discussion: "Default: $KIOSKPRINT_DATABASE, else /var/lib/kioskprint/kioskprint.sqlite for root and the service, else ~/.local/state/kioskprint/kioskprint.sqlite.",
        valueName: "path"))
    var database: String?

    func open() throws -> KioskStore {
        try KioskStore(path: DatabaseLocation.resolve(explicit: database))
    }
}

extension JobKind: ExpressibleByArgument {
    public init?(argument: String) { self.init(rawValue: argument.lowercased()) }
    public static var allValueStrings: [String] { allCases.map(\.rawValue) }
}

extension Role: ExpressibleByArgument {
    public init?(argument: String) { try? self.init(argument) }
}

/// Seconds given on the command line, as a Duration.
func seconds(_ value: Double) -> Duration { .milliseconds(Int((value * 1000).rounded())) }
