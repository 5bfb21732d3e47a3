import BenchSupport
import Foundation
import Simulator

/// `kioskprint-bench raw [--receipts N]`: issue 11's figure. The same 30-item
/// receipt through the spooler to a raw-TCP ESC/POS printer and to the 80 mm
/// IPP printer, N times each (default 40), in one run: queued to completed,
/// the bytes each path sends, and the agent's CPU time per receipt. Needs
/// root (the lab's avahi-daemon behind the IPP printer), and runs in a network
/// namespace of its own like the other lab benches.
enum RawBench {
    static let defaultReceipts = 40

    /// Runs in the lab `LabOptions.enterLab` set up: root, its own loopback.
    static func run(receipts: Int) async -> Never {
        await BenchReport.run("raw") {
            progress("starting a lab with one recording 80 mm receipt printer, and an ESC/POS simulator")
            let lab = try await PrinterLab.start([], nameTag: PrinterLab.processTag)
            defer { lab.stop() }
            let folder = lab.directory.appendingPathComponent("bench")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let printer = try await lab.startPrinter(.recording(.receipt80mm))
            let (escpos, simulator) = try ThreadClock.created {
                try EscPosPrinterSimulator(configuration: .init(printableWidth: 576, dotsPerInch: 203))
            }
            defer { escpos.stop() }

            progress("\(receipts) receipts on each path, alternating (after \(PrintBench.warmUps) warm-up rounds)")
            let figures = try await RawVersusIPP.measure(ipp: printer, escpos: escpos, simulator: simulator, receipts: receipts,
                                                         warmUps: PrintBench.warmUps, folder: folder)
            var table = BenchTable()
            RawRows(figures: figures).add(to: &table)
            return .init(blocks: [table.render()], legend: "ms = milliseconds, med = median, "
                + "p90/p99 = 90th/99th percentile (nearest rank), B = bytes")
        }
    }
}
