import CommandLineOutput
import Foundation
import PrintModel
import Setup
import Simulator
import Store

/// The demo's first part, an administrator's work: find the simulated
/// printers, filter them by kind, see what contacting one reveals, save the
/// receipt and label printers under their roles (and see the label printer
/// refused as the receipt printer), and check them.
struct DemoPrinterSetup {
    let lab: PrinterLab
    let databasePath: String

    func run() async throws {
        print("\n$ kioskprint printers discover")
        let started = ContinuousClock.now
        let everything = try await PrinterFinder().find(timeout: .seconds(10))
        print(ListingTable.render(everything.printers))
        print("\(everything.printers.count) printers found and contacted in \((ContinuousClock.now - started).formattedSeconds).")

        print("\n$ kioskprint printers discover --kind receipt")
        let receipts = everything.printers.filter { $0.matches([.receipt]) }
        print(ListingTable.render(receipts))

        // The lab's own printers: Avahi daemons on one machine hear each other
        // on loopback, so another lab's printers (of tests running) may show too.
        let ours = Set(lab.printers.map(\.port))
        guard let receipt = receipts.first(where: { ours.contains($0.discovered.port) }),
              let label = everything.printers.first(where: { $0.matches([.label]) && ours.contains($0.discovered.port) }) else {
            throw demoFailure("the simulated receipt and label printers were not found; see the lab's logs in \(lab.directory.path).")
        }
        if let contacted = receipt.capabilities {
            print("\nWhat contacting the receipt printer over IPP found (the picker shows this before saving):")
            print(CapabilitiesView.render(contacted, uri: receipt.uri))
        }

        let store = try KioskStore(path: databasePath)
        let setup = RoleSetup(store: store)
        print("\n$ kioskprint printers add \(receipt.uri) --role receipt")
        print(AssignmentReport.saved(try await setup.add(uri: receipt.uri, role: try Role("receipt"), as: .primary,
                                                          serviceName: receipt.discovered.serviceName)))
        print("\n$ kioskprint printers add \(label.uri) --role label")
        print(AssignmentReport.saved(try await setup.add(uri: label.uri, role: try Role("label"), as: .primary,
                                                          serviceName: label.discovered.serviceName)))
        print("\n$ kioskprint printers add \(label.uri) --role receipt --backup")
        do {
            _ = try await setup.add(uri: label.uri, role: try Role("receipt"), as: .backup)
            throw demoFailure("the label printer was accepted as a receipt printer.")
        } catch let error as CLIError {
            throw error
        } catch {
            print("Error: \(error)")
        }
        print("\n$ kioskprint printers check")
        let checked = try await setup.check()
        print(CheckTable.render(checked))

        // Anything short of every simulated printer found, contacted and ready is a failure.
        let contactedPorts = Set(everything.printers.filter { $0.capabilities != nil }.map(\.discovered.port))
        let missing = lab.printers.filter { !contactedPorts.contains($0.port) }.map(\.name)
        if !missing.isEmpty {
            throw demoFailure("not found or not contacted: \(missing.joined(separator: ", ")). The lab's logs are in "
                + "\(lab.directory.path) while it runs; run `kioskprint-demo --keep-running` to look at them.")
        }
        if let notReady = checked.first(where: { !$0.isReady }) {
            throw demoFailure("\(notReady.assignment.printer.name) (role \(notReady.assignment.role)) is not ready; see the check above.")
        }
    }
}
