import BenchSupport
import Foundation
import Simulator

/// `kioskprint-bench print`: issue 4's figure. A receipt from the moment its
/// job is accepted to the moment the printer reports it completed, through
/// KioskPrint's spooler in this process, beside the path a site would
/// otherwise take: the same receipt as a PDF, printed with `lp` through a
/// private cupsd with a driverless queue. Both sides print to instant
/// recording ippeveprinters on loopback. Section 4 is `kioskprint-bench raw`'s
/// (RawBench.swift) on the first of them. Issue 15's floor (PrintFloor.swift:
/// a C libcups client printing the same pre-drawn PWG) and CPU per receipt
/// are in section 1; section 5 (PrintWaitProcess.swift) is `kioskprint print
/// --wait` as a whole process beside that client's. Needs root (the lab's
/// avahi-daemon, cupsd), and runs in a network namespace of its own like the
/// default mode.
enum PrintBench {
    /// Receipts timed one at a time through the spooler, after `warmUps` untimed ones.
    static let receipts = 200
    static let warmUps = 3
    /// The throughput run: one printer and one role per lane, `jobsPerLane` jobs each.
    static let lanes = 3
    static let jobsPerLane = 50
    /// Jobs timed through lp and cupsd (about a second each), after one untimed job.
    static let lpJobs = 30
    /// Jobs sent with `-o media=Custom...`, which the roll printer refuses.
    static let refusedAttempts = 3

    /// Runs in the lab `LabOptions.enterLab` set up: root, its own loopback.
    static func run(kioskprint: String) async -> Never {
        await BenchReport.run("print") {
            progress("starting a lab with \(lanes + 1) recording receipt printers")
            let lab = try await PrinterLab.start([], nameTag: PrinterLab.processTag)
            defer { lab.stop() }
            let folder = lab.directory.appendingPathComponent("bench")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let floorClient = try await FloorClient.build(in: folder)
            let sameWork = try await SameWorkFloor.build(in: folder)

            var kioskPrinters: [RunningPrinter] = []
            for lane in 1...lanes {
                let preset = SimulatedPrinter.receipt80mm.named("KioskPrint Receipt 80mm \(lane)")
                kioskPrinters.append(try await lab.startPrinter(.recording(preset)))
            }
            let cupsPrinter = try await lab.startPrinter(.recording(try CupsReceiptPrinter.preset()))

            progress("1/4 KioskPrint: \(receipts) receipts one at a time (after \(warmUps) warm-ups)")
            let latency = try await SpoolerLatency.measure(printer: kioskPrinters[0], jobs: receipts,
                                                           warmUps: warmUps, folder: folder)

            progress("1/4 the floor: \(receipts) receipts by the C libcups client (after \(warmUps) warm-ups)")
            let floor = try await PrintFloor.measure(client: floorClient, latency: latency, printer: kioskPrinters[0],
                                                     jobs: receipts, warmUps: warmUps, folder: folder)

            progress("2/4 KioskPrint: \(lanes) x \(jobsPerLane) receipts queued at once, one spooler.run()")
            let throughput = try await SpoolerThroughput.measure(printers: kioskPrinters, perLane: jobsPerLane,
                                                                 folder: folder)

            progress("3/4 lp through a private cupsd: \(lpJobs) jobs (about a second each)")
            let cups: LpOutcome
            do {
                cups = .measured(try await LpPrintPath.measure(
                    saved: latency.printer, strictURI: kioskPrinters[0].uri, printer: cupsPrinter,
                    jobs: lpJobs, refusedAttempts: refusedAttempts, folder: folder))
            } catch {
                // Said in the table, not faked: the KioskPrint figures still stand.
                cups = .couldNotRun("\(error)")
            }

            progress("4/4 KioskPrint: raw TCP ESC/POS beside IPP, \(RawBench.defaultReceipts) receipts each")
            let (escpos, simulator) = try ThreadClock.created {
                try EscPosPrinterSimulator(configuration: .init(printableWidth: 576, dotsPerInch: 203))
            }
            defer { escpos.stop() }
            let raw = try await RawVersusIPP.measure(ipp: kioskPrinters[0], escpos: escpos, simulator: simulator,
                                                     receipts: RawBench.defaultReceipts, warmUps: warmUps, folder: folder)

            progress("5/5 kioskprint print --wait and the floors, as whole processes")
            let processes = try await PrintWaitProcess.measure(printer: kioskPrinters[0], floor: floor, sameWork: sameWork,
                                                               folder: folder, kioskprint: kioskprint)

            var table = BenchTable()
            PrintRows(latency: latency, throughput: throughput, cups: cups, floor: floor).add(to: &table)
            RawRows(figures: raw, number: 4).add(to: &table)
            processes.add(to: &table, floor: floor)
            return .init(blocks: [table.render()],
                         legend: "ms = milliseconds, med = median, p99 = 99th percentile (nearest rank)")
        }
    }
}

/// What the lp path gave: its figures, or why it could not be measured here.
enum LpOutcome: Sendable {
    case measured(LpPrintPath)
    case couldNotRun(String)
}
