import ArgumentParser
import Foundation
import PrintModel
import Setup
import Simulator
import Store

/// `kioskprint demo`: KioskPrint on built-in defaults, with simulated printers.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Start simulated printers on loopback and watch KioskPrint find, check and save them.",
        discussion: """
        Starts a private Avahi daemon limited to the loopback interface and three IPP \
        Everywhere printers (ippeveprinter): an 80 mm receipt roll, a 4x6 in label printer \
        and an office A4 printer. Then it does what an administrator would: discovers them, \
        filters by kind, saves the receipt and label printers under their roles in a \
        demo database, refuses a label printer as the receipt printer, and checks them. \
        Nothing touches the machine's own printers, Avahi or database. Needs root (for the \
        private Avahi daemon).
        """)

    @Flag(help: "Keep the simulated printers running until Ctrl-C, to try `printers pick` against them.")
    var keepRunning = false

    func run() async throws {
        print("Starting simulated printers on loopback behind a private Avahi daemon...")
        let lab: PrinterLab
        do { lab = try await PrinterLab.start() } catch { throw CLIError(error) }
        defer { lab.stop() }
        for printer in lab.printers { print("  \(printer.name) at \(printer.uri)") }

        let databasePath = lab.directory.appendingPathComponent("demo.sqlite").path
        do {
            try await walkThrough(lab: lab, databasePath: databasePath)
        } catch {
            throw CLIError(error)
        }

        guard keepRunning else {
            print("\nDone; the simulated printers are stopped. Run `kioskprint demo --keep-running` to try the picker yourself.")
            return
        }
        print("""

        The simulated printers keep running until you press Ctrl-C (which stops them). In another terminal:
          export DBUS_SYSTEM_BUS_ADDRESS=\(lab.busAddress)
          kioskprint printers pick --role receipt --database \(databasePath)
        """)
        // The lab stops its printers itself when Ctrl-C (or SIGTERM) ends the process.
        while true { try await Task.sleep(for: .seconds(3600)) }
    }

    private func walkThrough(lab: PrinterLab, databasePath: String) async throws {
        print("\n$ kioskprint printers discover")
        let started = ContinuousClock.now
        let everything = try await PrinterFinder().find(timeout: .seconds(10))
        print(ListingTable.render(everything.printers))
        print("\(everything.printers.count) printers found and contacted in \((ContinuousClock.now - started).formattedSeconds).")

        print("\n$ kioskprint printers discover --kind receipt")
        let receipts = everything.printers.filter { $0.matches([.receipt]) }
        print(ListingTable.render(receipts))

        if let contacted = receipts.first?.capabilities {
            print("\nWhat contacting the receipt printer over IPP found (the picker shows this before saving):")
            print(CapabilitiesView.render(contacted, uri: receipts[0].uri))
        }

        let store = try KioskStore(path: databasePath)
        let setup = RoleSetup(store: store)
        guard let receipt = receipts.first,
              let label = everything.printers.first(where: { $0.matches([.label]) }) else {
            throw CLIError("The simulated receipt and label printers were not found; see the lab's logs in \(lab.directory.path).")
        }
        print("\n$ kioskprint printers add \(receipt.uri) --role receipt")
        print(AssignmentReport.saved(try await setup.add(uri: receipt.uri, role: try Role("receipt"), as: .primary,
                                                          serviceName: receipt.discovered.serviceName)))
        print("\n$ kioskprint printers add \(label.uri) --role label")
        print(AssignmentReport.saved(try await setup.add(uri: label.uri, role: try Role("label"), as: .primary,
                                                          serviceName: label.discovered.serviceName)))
        print("\n$ kioskprint printers add \(label.uri) --role receipt")
        do {
            _ = try await setup.add(uri: label.uri, role: try Role("receipt"), as: .backup)
            print("(unexpectedly accepted)")
        } catch {
            print("Error: \(error)")
        }
        print("\n$ kioskprint printers list")
        print(AssignmentTable.render(try await store.assignments()))
        print("\n$ kioskprint printers check")
        let checked = try await setup.check()
        print(CheckTable.render(checked))

        // The demo is also CI's check of the release build: anything short of
        // every simulated printer found, contacted and ready is a failure.
        let contactedPorts = Set(everything.printers.filter { $0.capabilities != nil }.map(\.discovered.port))
        let missing = lab.standardPrinters.filter { !contactedPorts.contains($0.port) }.map(\.name)
        if !missing.isEmpty || checked.contains(where: { !$0.isReady }) {
            throw CLIError("The demo did not go as it should: not contacted: \(missing.isEmpty ? "none" : missing.joined(separator: ", ")), "
                + "or a saved printer not ready. The lab's logs are in \(lab.directory.path) while it runs; "
                + "run `kioskprint demo --keep-running` to look at them.")
        }
    }
}
