import BenchSupport
import Foundation
import PrintModel
import Setup
import Simulator
import Store

/// Section 5 (issue 15): a receipt printed by a whole process, spawn to
/// exit, as a shell script or a POS calling out would pay for it: the release
/// `kioskprint print receipt --role receipt --wait` against a database with
/// the printer saved under the role and no agent running (so the command
/// prints the job itself and waits for its end), beside the floor client as
/// a process printing the same receipt's pre-drawn PWG once, and the
/// same-work floor (SameWorkFloor: the same receipt laid out, drawn, spooled
/// and printed by the least C) as a process. All run under GNU time for their
/// peak memory (see PeakMemory on why not wait4).
struct PrintWaitProcess: Sendable {
    var kioskprint: [Duration] = []
    var kioskprintPeaks: [Int] = []
    var floor: [Duration] = []
    var floorPeaks: [Int] = []
    var sameWork: [Duration] = []
    var sameWorkPeaks: [Int] = []
    var sameWorkBuild: String = ""
    var command: String = ""

    static let runs = 20
    /// Issue 15's target for `kioskprint print --wait` as a process.
    static let target = Duration.milliseconds(35)

    static func measure(printer: RunningPrinter, floor: PrintFloor, sameWork: SameWorkFloor, folder: URL,
                        kioskprint: String) async throws -> PrintWaitProcess {
        guard let peak = PeakMemory.locate(folder: folder) else {
            throw BenchError("GNU time (/usr/bin/time) is not installed: scripts/install-deps.sh installs it")
        }
        let database = folder.appendingPathComponent("print-wait.sqlite").path
        let store = try KioskStore(path: database)
        _ = try await RoleSetup(store: store).add(uri: printer.uri, role: try Role("receipt"), as: .primary)
        let arguments = ["print", "receipt", "--role", "receipt", "--name", "bench-receipt", "--wait",
                         "--database", database]
        let floorArguments = floor.client.arguments(floor.document, uri: printer.uri)
        let sameWorkArguments = sameWork.arguments(uri: printer.uri,
                                                   database: folder.appendingPathComponent("same-work.sqlite").path)
        var result = PrintWaitProcess(sameWorkBuild: sameWork.compileCommand,
                                      command: "kioskprint " + arguments.joined(separator: " "))
        // One untimed run of each first, then the three in turn.
        for index in 0...runs {
            progress("print --wait and the floor client as processes: \(index) of \(runs)")
            let ours = try await offloaded { try peak.run(kioskprint, arguments, folder: folder) }
            let theirs = try await offloaded { try peak.run(floor.client.binary, floorArguments, folder: folder) }
            let same = try await offloaded { try peak.run(sameWork.binary, sameWorkArguments, folder: folder) }
            guard index > 0 else { continue }
            result.sameWork.append(same.elapsed)
            result.sameWorkPeaks.append(same.peakKiB)
            result.kioskprint.append(ours.elapsed)
            result.kioskprintPeaks.append(ours.peakKiB)
            result.floor.append(theirs.elapsed)
            result.floorPeaks.append(theirs.peakKiB)
        }
        return result
    }

    func add(to table: inout BenchTable, floor: PrintFloor) {
        table.section("5. A receipt printed by a whole process, spawn -> exit, \(Self.runs) runs each (ms), and its "
            + "peak memory")
        let ours = Sample(kioskprint)
        let verdict = ours.median.map { "target < \(Millis.text(Self.target)) ms: " + ($0 < Self.target ? "met; " : "missed; ") } ?? ""
        let ratio = ours.median.flatMap { kiosk in Sample(self.floor).median.map { base in
            String(format: "x%.1f the floor; ", Millis.value(kiosk) / Millis.value(base)) } } ?? ""
        let note = table.footnote("`\(command)` (the release kioskprint beside the bench; the database holds the "
            + "80 mm recording printer of section 1 saved under role receipt; no agent runs, so the command queues "
            + "the built-in receipt with its sample data, prints it itself and follows it to completed) beside "
            + "`ipp-print-floor \(floor.client.arguments(floor.document, uri: "URI").joined(separator: " "))`: the "
            + "floor client of section 1 in its one-job mode, with section 1's pre-drawn PWG. Each run spawned "
            + "under GNU time (/usr/bin/time -f %M) and timed from just before posix_spawn to the exit (GNU time's "
            + "own start and reaping are in both, about a millisecond); peak = GNU time's %M, the child's own "
            + "ru_maxrss. One untimed run of each first, then the two alternately.")
        table.add("kioskprint print receipt --wait", Sample(kioskprint).spread(), "ipp-print-floor, one job",
                  Sample(self.floor).spread(), note: verdict + ratio + note)
        table.add("its peak resident memory", Self.peaks(kioskprintPeaks), "ipp-print-floor, one job",
                  Self.peaks(floorPeaks))
        let same = Sample(sameWork)
        let sameVerdict = ours.median.flatMap { kiosk in same.median.map { base in
            String(format: "kioskprint / same-work floor x%.2f (medians); the target (%@ ms) is x%.2f this floor. ",
                   Millis.value(kiosk) / Millis.value(base), Millis.text(Self.target),
                   Millis.value(Self.target) / Millis.value(base)) } } ?? ""
        let sameNote = table.footnote("The same-work floor: Benchmarks/Floor/print-wait-floor.c, compiled by the bench "
            + "in this run (\(sameWorkBuild)), one receipt as a whole process, run in turn with the two above: it "
            + "opens its database (WAL, synchronous FULL), a Pango font map at 203 dpi and one HTTP connection, lays "
            + "out the built-in receipt with its sample data (texts, sizes and columns written out in C: no template, "
            + "no JSON), draws it with the logo and the QR code, thresholds it, encodes PWG raster (black_1), commits "
            + "the job queued and sending, sends Print-Job, asks Get-Job-Attributes at once and every 10 ms until "
            + "completed, commits the end and closes the database. It does less than the command: no arguments or "
            + "configuration, no template or data check, no claim, no readiness or Validate-Job exchange.")
        table.add("the same work in C, one receipt", same.spread(), "", "", note: sameVerdict + sameNote)
        table.add("its peak resident memory", Self.peaks(sameWorkPeaks), "", "")
    }

    /// `med 43.1 MB / max 43.5 MB`.
    static func peaks(_ kib: [Int]) -> String {
        let sorted = kib.sorted()
        guard let last = sorted.last else { return "n/a" }
        let median = sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
        return "med \(Megabytes.text(median)) / max \(Megabytes.text(last))"
    }
}
