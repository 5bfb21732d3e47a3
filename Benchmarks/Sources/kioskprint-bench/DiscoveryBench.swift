import BenchSupport
import Foundation
import Simulator

/// The default mode: discovery and contact latency against a private
/// PrinterLab, each beside the tool an administrator would otherwise use.
/// Needs root (it runs a private avahi-daemon in a namespace of its own).
enum DiscoveryBench {
    /// Runs in the lab `LabOptions.enterLab` set up: root, its own loopback.
    static func run() async -> Never {
        await BenchReport.run("discovery") {
            progress("starting a lab with no printers")
            // Tagged names: with --shared-loopback, other labs on this machine hear ours.
            let lab = try await PrinterLab.start([], nameTag: PrinterLab.processTag)
            defer { lab.stop() }
            let folder = lab.directory.appendingPathComponent("bench")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
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
            return .init(blocks: [table.render()], legend: "ms = milliseconds, med = median")
        }
    }
}
