import ArgumentParser
import Foundation
import PrintModel
import Rendering
import Setup
import Spooler
import Simulator
import Store
import Templates

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

    @Option(help: ArgumentHelp("Where the demo writes the PNG previews of what it draws.", valueName: "dir"))
    var previews = "/tmp/kioskprint-demo"

    func run() async throws {
        print("Starting simulated printers on loopback behind a private Avahi daemon...")
        let lab: PrinterLab
        // Recording printers: each job completes as soon as it is received
        // (a bare ippeveprinter "prints" for 5-15 s) and what it carried is kept.
        do { lab = try await PrinterLab.start(SimulatedPrinter.standardSet.map { .recording($0) }) } catch { throw CLIError(error) }
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

        try await drawForTheRoles(store: store)
        try await printThroughTheQueue(store: store, lab: lab)

        // The demo is also CI's check of the release build: anything short of
        // every simulated printer found, contacted and ready is a failure.
        let contactedPorts = Set(everything.printers.filter { $0.capabilities != nil }.map(\.discovered.port))
        let missing = lab.printers.filter { !contactedPorts.contains($0.port) }.map(\.name)
        if !missing.isEmpty || checked.contains(where: { !$0.isReady }) {
            throw CLIError("The demo did not go as it should: not contacted: \(missing.isEmpty ? "none" : missing.joined(separator: ", ")), "
                + "or a saved printer not ready. The lab's logs are in \(lab.directory.path) while it runs; "
                + "run `kioskprint demo --keep-running` to look at them.")
        }
    }

    /// Draws the receipt and the shipping label for the printers that hold
    /// their roles, from the capabilities saved when they were added.
    private func drawForTheRoles(store: KioskStore) async throws {
        try FileManager.default.createDirectory(atPath: previews, withIntermediateDirectories: true)
        for (template, role) in [("receipt", "receipt"), ("shipping-label", "label")] {
            let out = "\(previews)/\(template).png"
            print("\n$ kioskprint render \(template) --role \(role) --out \(out)")
            guard let printer = try await store.assignments(for: try Role(role)).first(where: \.isPrimary)?.printer,
                  let source = BuiltInTemplates.all.first(where: { $0.name == template }) else {
                throw CLIError("No printer holds the role \(role) after the demo saved one; see the output above.")
            }
            let job = try TemplateJob(source: source, dataJSON: Data((source.sampleData ?? "{}").utf8),
                                      dataFile: "\(template) sample data")
            let media = try MediaSelection.media(for: job.document.page, on: printer.capabilities)
            let rendered = try job.render(on: media)
            try rendered.writePNGPreview(toFile: out)
            print(RenderReport.lines(template: template, out: out, format: .png, media: media, printer: "\"\(printer.name)\"",
                                     width: rendered.pages.first.map { ", \($0.width) dots across" } ?? "",
                                     lengths: rendered.cutLengths))
        }
    }

    /// A receipt through the durable queue to the simulated receipt printer,
    /// and what the printer received: the cut length, to the hundredth of a millimetre.
    private func printThroughTheQueue(store: KioskStore, lab: PrinterLab) async throws {
        print("\n$ kioskprint print receipt --role receipt --name \"Receipt 4711, till 3\" --wait")
        guard let sample = BuiltInTemplates.all.first(where: { $0.name == "receipt" })?.sampleData else { return }
        let job = try await store.enqueue(name: "Receipt 4711, till 3", role: try Role("receipt"),
                                          content: .template(name: "receipt", dataJSON: sample))
        print("Job \(job.id) queued for the role receipt: \"\(job.name)\".")
        let spooler = Spooler(store: store, preparer: DocumentPreparer(catalog: TemplateCatalog())) { print($0.description) }
        let ended = try await spooler.deliver(job.id)
        guard ended.state == .completed, let cut = ended.cutLengths?.first,
              let port = ended.printer.flatMap({ URL(string: $0.uri)?.port }),
              let printer = lab.printers.first(where: { $0.port == port }),
              let received = try printer.receivedJobs().first(where: { $0.jobName.contains(ended.marker) }),
              received.attributes["IPP_MEDIA_COL"]?.contains("y-dimension=\(cut)") == true else {
            throw CLIError("The demo's receipt did not print as it should (job \(ended.id) \(ended.state): "
                + "\(ended.lastError ?? "no error recorded")). The lab's logs are in \(lab.directory.path).")
        }
        print("The printer received \"\(received.jobName)\" with media-col \(received.attributes["IPP_MEDIA_COL"] ?? "")")
    }
}
