import ArgumentParser
import CommandLineOutput
import Foundation
import PrintModel
import RawPrinters
import Setup

/// `kioskprint printers discover`: the printers on the network, filtered by kind.
struct DiscoverCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "discover",
        abstract: "List the printers announced on the network (DNS-SD) and the USB printers plugged in here.",
        discussion: """
        Browses _ipp._tcp and _ipps._tcp through Avahi, contacts each printer to learn \
        what kind it is and its state, and prints a table once every printer has answered \
        (or the timeout passes). --kind keeps only the printers made for those job kinds. \
        Raw printers are listed too: _pdl-datastream._tcp services (port 9100), asked their \
        status in their own language when the catalog knows their model, and the USB \
        printer-class devices of this machine with their IEEE 1284 device IDs.
        """)

    @Option(name: .customLong("kind"), parsing: .singleValue,
            help: "Show only printers of this kind (repeatable): \(JobKind.allValueStrings.joined(separator: ", ")).")
    var kinds: [JobKind] = []

    @Option(help: "Give up waiting after this many seconds.")
    var timeout: Double = 5

    @Flag(help: "Print JSON for scripts instead of a table.")
    var json = false

    func run() async throws {
        // Each printer gets 3 s to answer by default; a longer search given with
        // --timeout also waits longer for a slow (busy, asleep) printer's answer.
        let finder = PrinterFinder(kinds: Set(kinds), contactTimeout: seconds(min(timeout, max(3, timeout / 2))))
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
        let usb = LocalPrinterListing.connected(in: .fromEnvironment).filter { local in
            kinds.isEmpty || (local.catalogEntry?.profile.kind ?? local.language?.usualKind).map { kind in
                !Set(kinds).isDisjoint(with: [kind == .receipt ? JobKind.receipt : .label, .roll])
            } ?? false
        }
        if json {
            print(try JSONOutput.encode(latest.printers.map(DiscoveredPrinterJSON.init) + usb.map(DiscoveredPrinterJSON.init)))
            return
        }
        print(ListingTable.render(latest.printers))
        if !usb.isEmpty { print("\nUSB printers on this machine:\n" + LocalPrinterTable.render(usb)) }
        let elapsed = ContinuousClock.now - started
        var summary = "\(latest.printers.count) printer\(latest.printers.count == 1 ? "" : "s")"
        if !kinds.isEmpty { summary += " of kind \(Set(kinds).listing) (\(latest.foundCount) found in all)" }
        summary += " in \(elapsed.formattedSeconds)."
        if !latest.complete { summary += " Still waiting for some answers when the \(timeout) s timeout passed." }
        print(summary)
    }
}
