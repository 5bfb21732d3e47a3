import Foundation
import PrintModel

/// The raw bench's rows: the raw-TCP ESC/POS path in KioskPrint's column, the
/// IPP path beside it as the alternative, with issue 11's target.
struct RawRows {
    let figures: RawVersusIPP
    /// The table's section number: 1 in `raw`, 4 in `print`.
    var number = 1

    func add(to table: inout BenchTable) {
        let raw = figures.raw, ipp = figures.ipp
        table.section("\(number). A \(LongReceipt.items)-item receipt through Spooler.deliver, raw TCP ESC/POS beside IPP: "
            + "\(raw.jobs) + \(ipp.jobs) jobs, alternating, one spooler in this process")
        let pathNote = table.footnote(paths)
        let ippPath = "the same receipt over IPP (80 mm ippeveprinter)"

        let ours = Sample(raw.toCompleted), theirs = Sample(ipp.toCompleted)
        var verdict = ""
        if let rawMedian = ours.median, let ippMedian = theirs.median {
            let met = rawMedian <= ippMedian
            verdict = "target raw no slower than IPP: \(met ? "met" : "missed") (medians, raw "
                + "\(String(format: "%.2f", Millis.value(rawMedian) / Millis.value(ippMedian)))x IPP's time) "
        }
        table.add("accepted -> completed (ms)", ours.spread(missing: raw.failures.count), ippPath,
                  theirs.spread(missing: ipp.failures.count), note: verdict + pathNote)

        let bytesNote = table.footnote("Raw: every byte the simulator read on its connection during the job: ESC @, "
            + "the inked rows as GS v 0 bands (uncompressed, each only as wide as its ink, at most \(figures.rawDots / 8) bytes a row at "
            + "\(figures.rawDots) dots), every white run as an ESC J feed, the GS V cut, and the "
            + "spooler's real-time status requests (DLE EOT) and process-ID request (GS ( H) where the model has one. "
            + "IPP: the document the printer kept (`-k`), "
            + "\(figures.ippFormat ?? "raster"); PWG raster compresses runs of equal bytes, and the Print-Job "
            + "request's attributes and HTTP framing, and the Get-Printer/Get-Job-Attributes exchanges, are not counted.")
        table.add("bytes to the printer per receipt", Self.bytes(raw.bytes), "its PWG raster document",
                  Self.bytes(ipp.bytes), note: bytesNote)

        let cpuNote = table.footnote(cpuMethod)
        table.add("agent CPU per receipt (ms)", Millis.text(raw.agentCPUPerJob), ippPath, Millis.text(ipp.agentCPUPerJob),
                  note: cpuNote)
        if let simulator = raw.simulatorCPU, raw.jobs > 0 {
            table.add("  simulator thread, taken out above", Millis.text(simulator / raw.jobs),
                      "ippeveprinter", "another process: not counted",
                      note: "the process's own figure was \(Millis.text(raw.processCPU / raw.jobs)) ms per raw receipt")
        }
        let cut = raw.cutLength.map { " at \(ReceiptPDF.millimetres($0)) mm" } ?? ""
        let dpi = figures.rawDPI
        let metric = raw.cutLength.map { " (\(DotPitch(dpi: dpi).dots(Length(hundredthsOfMillimetre: $0))) at the head's real pitch)" } ?? ""
        table.add("raw pieces cut at the planned length, to the dot",
                  "\(figures.rawCutsExact) of \(figures.rawPieces)" + (figures.rawPieceDots.map { " (\($0) dots)" } ?? ""),
                  "", "", note: "receipt cut\(cut) = \(raw.cutLength.map { "\(Length(hundredthsOfMillimetre: $0).dots(at: dpi))" } ?? "?") "
                    + "rows at \(dpi) dpi as the page is drawn\(metric); the paper between cuts as the simulator measured it")
        let failed = raw.failures.map { "raw \($0)" } + ipp.failures.map { "IPP \($0)" }
        if !failed.isEmpty {
            _ = table.footnote("Jobs that did not complete: " + Set(failed).sorted().joined(separator: "; "))
        }
    }

    /// `181440 B each`, or `med 181440 / max 181512 B` when they differ.
    static func bytes(_ counts: [Int]) -> String {
        let sorted = counts.sorted()
        guard let first = sorted.first, let last = sorted.last else { return "none measured" }
        if first == last { return "\(first) B each" }
        return "med \(sorted[sorted.count / 2]) / max \(last) B"
    }

    private var paths: String {
        "One KioskStore on a temporary file, two roles: the IPP printer saved with RoleSetup.add (contacted over IPP), "
            + "the raw one with KioskStore.assign and the capabilities ModelCatalog gives for \(figures.rawModel) "
            + "(\(figures.rawDPI) dpi, \(figures.rawDots) dots), its URI socket://127.0.0.1:PORT of an EscPosPrinterSimulator in this process. "
            + "Each job is .template(\"receipt\", the render bench's \(LongReceipt.items)-item data), enqueued and "
            + "delivered with Spooler.deliver(jobID): claimed, the printer's state asked (raw: DLE EOT; IPP: "
            + "Get-Printer-Attributes), drawn for that printer, sent (raw: ESC/POS over the socket, complete once the "
            + "printer answered after the cut; IPP: Print-Job, then Get-Job-Attributes until completed), recorded. "
            + "\(PrintBench.warmUps) untimed rounds first; each round prints one receipt on each path, the first path "
            + "alternating. 'accepted' = enqueue returned."
    }

    private var cpuMethod: String {
        let base = "getrusage(RUSAGE_SELF) user + system, summed over each timed job's window (enqueue to deliver "
            + "returning), divided by the jobs. The IPP printer is another process, so it is not in the figure. "
        guard let thread = figures.simulatorThread else {
            return base + "The ESC/POS simulator's thread could not be found by name, so the raw figure INCLUDES "
                + "the simulator's CPU: it overstates the agent's."
        }
        return base + "The ESC/POS simulator runs in this process on a thread of its own (\(thread): the only "
            + "thread its init started; Linux gives a thread its creator's name, and Foundation's longer name does not "
            + "fit the kernel's 15 bytes); its CPU "
            + "time over the same windows (from /proc/self/task/TID/schedstat, nanoseconds) is subtracted, so the "
            + "raw figure is the agent's own: rendering, encoding, the socket and the store."
    }
}
