import BenchSupport
import Foundation
import Simulator

/// Section 1's floor and CPU rows (issue 15): the same receipt, drawn once
/// beforehand by the spooler's own preparer for the same saved printer, sent
/// by the C libcups client (FloorClient) to the same recording printer, as
/// many jobs as the spooler's, in the same run; and the CPU each side spent
/// per receipt, with cupsd's for section 1's lp jobs.
struct PrintFloor: Sendable {
    var client: FloorClient
    var document: FloorDocument
    var run: FloorClient.Run

    /// Issue 15's target: accepted -> completed at most this many times the floor's time.
    static let targetRatio = 1.5
    /// And cupsd with its filters at least this many times the agent's CPU per receipt.
    static let cpuTargetRatio = 15.0

    /// `client`: built before any timing (FloorClient.build), so a compile failure ends the bench at once.
    static func measure(client: FloorClient, latency: SpoolerLatency, printer: RunningPrinter, jobs: Int,
                        warmUps: Int, folder: URL) async throws -> PrintFloor {
        let document = try FloorDocument.draw(dataJSON: try ReceiptSample.json(), for: latency.printer.capabilities,
                                              folder: folder, name: "receipt.pwg")
        let run = try await client.run(document, uri: printer.uri, jobs: jobs, warmUps: warmUps, folder: folder)
        return PrintFloor(client: client, document: document, run: run)
    }

    /// Rows under section 1's "accepted -> completed at the printer".
    static func add(_ floor: PrintFloor?, latency: SpoolerLatency, lp: LpPrintPath?,
                    to table: inout BenchTable) {
        let ours = Sample(latency.toCompleted)
        let perReceipt = latency.accept.isEmpty ? nil : latency.processCPU / latency.accept.count
        if let floor {
            let theirs = Sample(floor.run.times)
            var verdict = ""
            if let kiosk = ours.median, let base = theirs.median {
                let ratio = Millis.value(kiosk) / Millis.value(base)
                verdict = String(format: "KioskPrint / floor x%.2f (medians); target <= %.1fx: ", ratio, targetRatio)
                    + (ratio <= targetRatio ? "met; " : "missed; ")
            }
            let same = latency.documentBytes.map { $0 == floor.document.bytes ? "the same size" : "\($0) bytes: NOT the same" }
            let note = table.footnote("The floor: Benchmarks/Floor/ipp-print-floor.c, compiled by the bench in this "
                + "run (\(floor.client.compileCommand)), run once with -n \(floor.run.times.count) "
                + "-w \(PrintBench.warmUps): one process, one HTTP connection (httpConnect2 once), "
                + "\(PrintBench.warmUps) untimed jobs, then each job timed from just before its Print-Job is sent to "
                + "the Get-Job-Attributes reply (asked at once, then every 10 ms) that reads completed. Its document "
                + "is the receipt drawn once before timing by the spooler's DocumentPreparer for the same saved "
                + "printer (\(floor.document.bytes) bytes, \(floor.document.attributesText); the spooler's last job "
                + "reached the printer as \(same ?? "(not recorded)")), read into memory once; it carries the "
                + "attributes IPPChannel sends (job-name, document-format, print-color-mode monochrome, media-col, "
                + "finishings). Same recording printer as KioskPrint's rows, run right after them. KioskPrint's time "
                + "includes what the floor does not: the store's claim and commits, the readiness "
                + "Get-Printer-Attributes, drawing the receipt, and a follow that waits 10, 20, 40 ms.")
            table.add("accepted -> completed, beside the floor", ours.spread(missing: latency.failures.count),
                      "C libcups client, same PWG: Print-Job -> completed", theirs.spread(), note: verdict + note)
            let cpuNote = table.footnote("KioskPrint: this process's user + system time (getrusage RUSAGE_SELF) "
                + "from just before each timed enqueue to deliver's return, summed over the \(latency.accept.count) "
                + "timed jobs and divided by them: the store, drawing, IPP and the follow, all in this process (the "
                + "printer is another process; nothing else runs here meanwhile). The floor: the C client's own "
                + "getrusage over its timed jobs, divided by them; it draws nothing.")
            let ratio = perReceipt.map { ours in
                String(format: "KioskPrint / floor x%.1f; ", Millis.value(ours) / max(Millis.value(floor.run.cpuPerJob), 0.001))
            } ?? ""
            table.add("CPU per receipt", DaemonCPU.text(perReceipt), "C libcups client, same PWG, per job",
                      DaemonCPU.text(floor.run.cpuPerJob), note: ratio + cpuNote)
        }
        guard let lp else { return }
        let done = lp.timed.count
        let cupsPerJob = lp.cupsdCPU.map { done > 0 ? $0 / done : Duration.zero }
        var cupsRatio = ""
        if let ours = perReceipt, let theirs = cupsPerJob, Millis.value(ours) > 0 {
            let ratio = Millis.value(theirs) / Millis.value(ours)
            cupsRatio = String(format: "cupsd / KioskPrint x%.1f; target >= %.0fx: ", ratio, cpuTargetRatio)
                + (ratio >= cpuTargetRatio ? "met; " : "missed; ")
        }
        let cupsNote = table.footnote("cupsd's CPU for section 1's \(done) timed lp jobs: utime + stime + cutime + "
            + "cstime of the private cupsd from /proc/PID/stat, read before the first timed job and after the last "
            + "had completed, divided by the jobs. cutime/cstime are its reaped children's: the filters "
            + "(\(lp.filterChain.isEmpty ? "the PDF's chain" : lp.filterChain.joined(separator: ", "))) and the IPP "
            + "backend, which cupsd runs per job. Counted too: cupsd answering lp and the bench's Get-Job-Attributes "
            + "every 10 ms. Not counted: lp itself. Kernel ticks of 10 ms.")
        table.add("", "", "cupsd + its filters and backend, per lp job", DaemonCPU.text(cupsPerJob),
                  note: cupsRatio + cupsNote)
    }
}
