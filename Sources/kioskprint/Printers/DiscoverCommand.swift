import ArgumentParser
import Foundation
import PrintModel
import Setup

/// `kioskprint printers discover`: the printers on the network, filtered by kind.
struct DiscoverCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "discover",
        abstract: "List the printers announced on the network (DNS-SD), confirmed over IPP.",
        discussion: """
        Browses _ipp._tcp and _ipps._tcp through Avahi, contacts each printer to learn \
        what kind it is and its state, and prints a table once every printer has answered \
        (or the timeout passes). --kind keeps only the printers made for those job kinds.
        """)

    @Option(name: .customLong("kind"), parsing: .singleValue,
            help: "Show only printers of this kind (repeatable): \(JobKind.allValueStrings.joined(separator: ", ")).")
    var kinds: [JobKind] = []

    @Option(help: "Give up waiting after this many seconds.")
    var timeout: Double = 5

    @Flag(help: "Print JSON for scripts instead of a table.")
    var json = false

    func run() async throws {
        let finder = PrinterFinder(kinds: Set(kinds), contactTimeout: seconds(min(timeout, 3)))
        let progress = ProgressLine(enabled: !json)
        let started = ContinuousClock.now
        var latest = PrinterFinder.Snapshot.empty
        do {
            latest = try await finder.find(timeout: seconds(timeout)) { snapshot in
                progress.show("Searching for printers... \(snapshot.foundCount) found" +
                              (kinds.isEmpty ? "" : ", \(snapshot.printers.count) of the kinds asked"))
            }
        } catch {
            progress.clear()
            throw CLIError(error)
        }
        progress.clear()
        if json {
            print(try JSONOutput.encode(latest.printers.map(DiscoveredPrinterJSON.init)))
            return
        }
        print(ListingTable.render(latest.printers))
        let elapsed = ContinuousClock.now - started
        var summary = "\(latest.printers.count) printer\(latest.printers.count == 1 ? "" : "s")"
        if !kinds.isEmpty { summary += " of kind \(Set(kinds).listing) (\(latest.foundCount) found in all)" }
        summary += " in \(elapsed.formattedSeconds)."
        if !latest.complete { summary += " Still waiting for some answers when the \(timeout) s timeout passed." }
        print(summary)
    }
}
