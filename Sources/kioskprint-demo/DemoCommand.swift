import ArgumentParser
import CommandLineOutput
import Foundation
import Simulator

/// `kioskprint-demo`: KioskPrint on built-in defaults, with simulated printers.
///
/// First an administrator's work (DemoPrinterSetup.swift), then the real
/// agent, `kioskprint run`, on a demo configuration (DemoAgentRun.swift), then
/// what each printer received, as PNGs (ReceivedPreviews.swift). It is also
/// CI's check of the release build: anything that does not go as it should
/// ends it with an error and a non-zero exit status.
@main
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "kioskprint-demo",
        abstract: "Start simulated printers on loopback, save them for their roles, and run the agent against them.",
        discussion: """
        Starts a private Avahi daemon limited to the loopback interface and three IPP \
        Everywhere printers (ippeveprinter): an 80 mm receipt roll, a 4x6 in label printer \
        and an office A4 printer, an ESC/POS coupon printer (a simulated Epson TM-T20III) and a \
        Star Graphic kitchen printer (a simulated Star TSP143III) on raw TCP. Then it does what an administrator would: discovers them, \
        filters by kind, saves the receipt and label printers under their roles in a \
        demo database, refuses a label printer as the receipt printer, checks them, and saves \
        the coupon and kitchen printers from the model catalog. \
        Last, it runs the agent (`kioskprint run`) on a demo configuration: jobs dropped into \
        watched folders, a take-a-number button and a status light (on a simulated GPIO chip), \
        a receipt posted to the HTTP API, a PDF printed through CUPS to the receipt role printer, \
        ESC/POS from python-escpos to the coupon role's raw port, an ePOS-Print XML receipt posted \
        as Odoo posts it, a coupon posted to the kitchen's Star printer as Star's WebPRNT SDK posts it, \
        and shows what each printer \
        received as PNG previews. \
        Nothing touches the machine's own printers, Avahi, GPIO or database. Needs root (for the \
        private Avahi daemon).
        """)

    @Flag(help: "Keep the simulated printers running until Ctrl-C, to try `printers pick` and `run` against them.")
    var keepRunning = false

    @Option(help: ArgumentHelp("Where the demo writes the PNG previews of what the printers received.", valueName: "dir"))
    var previews = "/tmp/kioskprint-demo"

    func run() async throws {
        let started = ContinuousClock.now
        print("Starting simulated printers on loopback behind a private Avahi daemon...")
        let lab: PrinterLab
        // Recording printers: each job completes as soon as it is received
        // (a bare ippeveprinter "prints" for 5-15 s) and what it carried is kept.
        do { lab = try await PrinterLab.start(SimulatedPrinter.standardSet.map { .recording($0) }) } catch { throw CLIError(error) }
        defer { lab.stop() }
        for printer in lab.printers { print("  \(printer.name) at \(printer.uri)") }
        let coupon: DemoCouponPrinter
        do { coupon = try DemoCouponPrinter.start() } catch { throw error as? CLIError ?? CLIError(error) }
        defer { coupon.simulator.stop() }
        print("  \(DemoCouponPrinter.name) at \(coupon.simulator.uri) (ESC/POS on raw TCP, no DNS-SD)")
        let kitchen: DemoKitchenPrinter
        do { kitchen = try DemoKitchenPrinter.start() } catch { throw error as? CLIError ?? CLIError(error) }
        defer { kitchen.simulator.stop() }
        print("  \(DemoKitchenPrinter.name) at \(kitchen.simulator.uri) (Star Graphic on raw TCP, no DNS-SD)")

        let databasePath = lab.directory.appendingPathComponent("demo.sqlite").path
        let agentRun: DemoAgentRun
        do {
            try await DemoPrinterSetup(lab: lab, databasePath: databasePath).run()
            try await coupon.save(databasePath: databasePath)
            try await kitchen.save(databasePath: databasePath)
            agentRun = try await DemoAgentRun.prepare(lab: lab, databasePath: databasePath, coupon: coupon)
            let ended = try await agentRun.run(previews: previews)
            try ReceivedPreviews(lab: lab, coupon: coupon, kitchen: kitchen, folder: previews + "/received").show(ended: ended)
        } catch {
            fflush(nil)  // what was shown so far, before the error on standard error
            throw error as? CLIError ?? CLIError(error)
        }
        print("\nThe demo went as it should in \((ContinuousClock.now - started).formattedSeconds).")

        guard keepRunning else {
            print("The simulated printers are stopped. Run `kioskprint-demo --keep-running` to try the picker and the agent yourself.")
            return
        }
        let files = agentRun.files
        print("""

        The simulated printers keep running until you press Ctrl-C (which stops them). In another terminal:
          export DBUS_SYSTEM_BUS_ADDRESS=\(lab.busAddress)
          kioskprint printers pick --role receipt --database \(databasePath)
          kioskprint run --config \(files.configPath) --database \(databasePath)
        and drop receipt data (.json) into \(files.pos), coupon data into \(files.coupons), or job envelopes into \(files.labels).
        Without the demo's simulated GPIO chip, that agent reports its button and light as unusable and runs without them.
        """)
        fflush(nil)  // Ctrl-C ends the process without flushing standard output
        // The lab stops its printers itself when Ctrl-C (or SIGTERM) ends the process.
        while true { try await Task.sleep(for: .seconds(3600)) }
    }
}

/// The error that ends the demo when something in it does not go as it
/// should: it is CI's check of the release build.
func demoFailure(_ what: String) -> CLIError {
    CLIError("The demo did not go as it should: \(what)")
}
