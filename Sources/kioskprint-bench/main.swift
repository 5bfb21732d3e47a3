// kioskprint-bench: KioskPrint's discovery and contact figures, measured in
// this run against a private PrinterLab, each beside the tool a person would
// otherwise use. Run as root: `swift run -c release kioskprint-bench`
// (`-- --shared-loopback` to measure on the machine's loopback, beside
// whatever other labs are running, instead of in a namespace of its own).
import Foundation
import Simulator

/// Progress goes to standard error, and only on a terminal, so that standard
/// output is the table alone.
func progress(_ message: String) {
    guard isatty(STDERR_FILENO) == 1 else { return }
    FileHandle.standardError.write(Data("... \(message)\n".utf8))
}

guard geteuid() == 0 else {
    FileHandle.standardError.write(Data("kioskprint-bench needs root: it runs a private avahi-daemon. Run it with sudo.\n".utf8))
    exit(1)
}

PrivateLoopback.enterUnlessShared()
// A closed standard output (`| head`) would otherwise end the process by
// SIGPIPE, which skips the lab's clean-up and leaves its daemons running.
signal(SIGPIPE, SIG_IGN)
let facts = MachineFacts.current()
do {
    progress("starting a lab with no printers")
    // Tagged names: with --shared-loopback, other labs on this machine hear ours.
    let lab = try await PrinterLab.start([], nameTag: PrinterLab.processTag)
    defer { lab.stop() }
    let folder = lab.directory.appendingPathComponent("bench")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let began = ContinuousClock.now
    var table = BenchTable()

    progress("1/3 discovery latency (5 rounds of 3 printers)")
    let discovery = try await DiscoveryLatency.measure(lab: lab, rounds: 5, folder: folder)
    discovery.addRows(to: &table)

    progress("2/3 cold discover")
    let cold = try await ColdDiscovery.measure(lab: lab, printers: discovery.printers, runs: 5, folder: folder)
    cold.addRows(to: &table, idle: discovery.idleSettle)

    progress("3/3 contact latency")
    guard let receipt = discovery.printers.first(where: { $0.preset == .receipt80mm }) else {
        throw BenchError("the receipt printer is not running")
    }
    let contact = try await ContactLatency.measure(receipt: receipt, calls: 200, toolRuns: 30, folder: folder)
    contact.addRows(to: &table)

    print(facts.text)
    print("")
    print(table.render())
    print("Measured in \(Millis.text(ContinuousClock.now - began)) ms of lab time; ms = milliseconds, med = median.")
} catch {
    FileHandle.standardError.write(Data("kioskprint-bench: \(error)\n".utf8))
    exit(1)
}
