import Foundation

/// The print bench's rows: KioskPrint's spooler beside lp through cupsd,
/// with the ratio issue 4 asks for and the paper each side asked for.
struct PrintRows {
    let latency: SpoolerLatency
    let throughput: SpoolerThroughput
    let cups: LpOutcome
    /// Issue 15's floor (the C libcups client) and CPU rows, under section 1's completed row.
    var floor: PrintFloor? = nil

    /// Issue 4's target: KioskPrint at least this many times faster to completion.
    static let targetRatio = 10.0
    /// Issue 15's target for section 2: three printers in parallel.
    static let receiptsPerSecondTarget = 100.0

    private var lp: LpPrintPath? { if case .measured(let lp) = cups { lp } else { nil } }

    func add(to table: inout BenchTable) {
        addLatency(to: &table)
        addThroughput(to: &table)
        addPaper(to: &table)
    }

    private func addLatency(to table: inout BenchTable) {
        table.section("1. A receipt end to end, one job at a time, to an instant recording printer on loopback (ms)")
        let kioskNote = table.footnote(kioskPrintPath)
        let lpNote = lp.map { table.footnote(cupsPath($0)) }
        let recordedNote = table.footnote("Recorded = the modification time of the printer's record of the job, which "
            + "its -c script writes before it exits (and so before the printer calls the job completed), less the "
            + "wall-clock time at the start. File times move in kernel ticks: good to a few ms.")
        let unmeasured = "not measured"
        let timed = lp?.timed.filter { $0.state == .completed } ?? []
        let lpFailures = (lp?.timed.count ?? 0) - timed.count

        table.add("accept: checked, drawn, synced to disk", Sample(latency.accept).spread(),
                  lp.map { "lp -h localhost:PORT -d receipt -o \($0.pageSizeOption) receipt.pdf" } ?? "lp",
                  lp.map { Sample($0.timed.map(\.lpExit)).spread() } ?? unmeasured,
                  note: "lp: spawn to exit, cupsd has the job spooled")
        table.add("accepted -> recorded by the printer", Sample(latency.toRecorded).spread(),
                  "lp spawned -> recorded by the printer",
                  lp.map { _ in Sample(timed.compactMap(\.toRecorded)).spread() } ?? unmeasured, note: recordedNote)
        let ours = Sample(latency.toCompleted), theirs = Sample(timed.map(\.toEnd))
        var verdict = ""
        if let kiosk = ours.median, let other = theirs.median, lp != nil {
            let ratio = Millis.value(other) / Millis.value(kiosk)
            verdict = "lp x\(String(format: "%.1f", ratio)) (medians); target KioskPrint >= "
                + "\(Int(Self.targetRatio))x faster: \(ratio >= Self.targetRatio ? "met" : "missed"); "
        }
        table.add("accepted -> completed at the printer",
                  ours.spread(missing: latency.failures.count),
                  "lp spawned -> completed in cupsd",
                  lp.map { _ in theirs.spread(missing: lpFailures) } ?? unmeasured,
                  note: verdict + ([kioskNote] + (lpNote.map { [$0] } ?? [])).joined(separator: " "))
        PrintFloor.add(floor, latency: latency, lp: lp, to: &table)
        switch cups {
        case .couldNotRun(let reason):
            table.add("", "", "lp through a private cupsd", unmeasured, note: "cupsd could not run here: \(reason)")
        case .measured(let lp):
            let ends = Dictionary(grouping: lp.refused, by: { "\($0.state)" }).map { "\($0) \($1.count)" }
                .sorted().joined(separator: ", ")
            table.add("", "-", "lp ... -o \(lp.mediaOption) receipt.pdf",
                      "\(ends) of \(lp.refused.count), med \(Millis.text(Sample(lp.refused.map(\.toEnd)).median)) to the end",
                      note: "never printed: the roll printer refuses the rounded size (section 3)")
        }
        if !latency.failures.isEmpty {
            _ = table.footnote("KioskPrint jobs that did not complete: " + Set(latency.failures).sorted().joined(separator: "; "))
        }
        if let lp, lpFailures > 0 {
            let reasons = lp.timed.filter { $0.state != .completed }.map { "\($0.state): \($0.message ?? "")" }
            _ = table.footnote("lp jobs that did not complete: " + Set(reasons).sorted().joined(separator: "; "))
        }
    }

    private func addThroughput(to table: inout BenchTable) {
        let t = throughput
        table.section("2. Throughput: \(t.lanes) printers, \(t.lanes) roles, \(t.queued) receipts queued at once, "
            + "one spooler.run() task")
        let ours = "\(String(format: "%.1f", t.jobsPerSecond)) receipts/s (\(t.completed) in \(Millis.text(t.elapsed)) ms)"
            + (t.failures.isEmpty ? "" : ", \(t.failures.count) not completed")
        let note = table.footnote("From starting run() to the store poll (every "
            + "\(Millis.text(SpoolerThroughput.pollInterval)) ms) that saw every job ended; each role is served one "
            + "job at a time, the roles in parallel, on one process. lp's figure is not a concurrent run: it is "
            + "section 1's jobs, one after another on one queue, divided by the sum of their times to completion."
            + (t.failures.isEmpty ? "" : " Not completed: " + Set(t.failures).sorted().joined(separator: "; ")))
        var theirs = "not measured", ratio = ""
        if let lp {
            let done = lp.timed.filter { $0.state == .completed }
            let seconds = done.map { Millis.value($0.toEnd) }.reduce(0, +) / 1000
            if seconds > 0 {
                let rate = Double(done.count) / seconds
                theirs = "\(String(format: "%.2f", rate)) jobs/s (\(done.count) in \(String(format: "%.0f", seconds * 1000)) ms)"
                ratio = "KioskPrint x\(String(format: "%.0f", t.jobsPerSecond / rate)) "
            }
        }
        let target = "target >= \(Int(Self.receiptsPerSecondTarget)) receipts/s: "
            + (t.jobsPerSecond >= Self.receiptsPerSecondTarget ? "met; " : "missed; ")
        table.add("receipts per second, all ended", ours, "lp, one queue, one job after another", theirs,
                  note: target + ratio + note)
    }

    private func addPaper(to table: inout BenchTable) {
        table.section("3. The paper each side asked the printer for: media-col, hundredths of a millimetre "
            + "(from the printer's recording)")
        let exact = latency.cutLength ?? lp?.cutLength
        let measure = exact.map { "receipt cut at \(ReceiptPDF.millimetres($0)) mm (\($0))" } ?? "receipt cut"
        func verdict(_ media: RecordedMedia?) -> String {
            guard let media else { return "not recorded" }
            guard let exact else { return media.text }
            let off = media.y - exact
            return media.text + (off == 0 ? ": exact" : ": \(abs(off)) \(off < 0 ? "short" : "long")")
        }
        guard let lp else {
            table.add(measure, verdict(latency.delivered), "lp through a private cupsd", "not measured")
            return
        }
        let delivered = lp.timed.last { $0.state == .completed }?.delivered
        table.add(measure, verdict(latency.delivered), "lp ... -o \(lp.pageSizeOption)", verdict(delivered),
                  note: "what the timed lp jobs used")
        let points = lp.refusedMedia.map { media in
            "y \(Self.points(media.y)) pt, x \(Self.points(media.x)) pt: whole points; "
        } ?? ""
        let marker = table.footnote("CUPS turns `-o \(lp.mediaOption)` into a custom PageSize in whole points, "
            + "and its IPP backend sends that as media-col (read from cupsd's log at LogLevel debug, one more "
            + "untimed job). The printer's roll is exactly 8000 wide with cut lengths 2500-300000; it answered "
            + (lp.refusedAnswer.map { "\"\($0)\"" } ?? "(nothing in the log)")
            + " and cupsd canceled the job, so nothing printed. `-o \(lp.pageSizeOption)` keeps the size exact.")
        table.add("", "", "lp ... -o \(lp.mediaOption)",
                  lp.refusedMedia.map { "\(verdict($0)), refused" } ?? "not in cupsd's log",
                  note: points + marker)
    }

    private var kioskPrintPath: String {
        "KioskPrint in this process, as the agent takes a job in and prints it: a KioskStore on a temporary file "
            + "(each commit synced to disk), the printer saved with RoleSetup.add(uri:role:as:force:), each job taken "
            + "in by JobIntake.queueTemplate(\"receipt\", its sample data) with the agent's preparer (checked, laid "
            + "out and drawn as \(latency.documentFormat ?? "raster") for the saved 80 mm roll while the insert "
            + "commits) and delivered with Spooler.deliver(jobID) under the default SpoolerConfiguration: claimed, "
            + "the printer's state asked (Get-Printer-Attributes) unless it answered ready within 2 s, the intake's "
            + "drawing sent with Print-Job (exact media-col, cut finishings), followed with Get-Job-Attributes (at "
            + "once, then every 10 ms for five looks, then 20, 40 ms, ...) until completed, recorded in the store. "
            + "\(PrintBench.warmUps) untimed jobs first, then \(latency.accept.count) timed one after another; "
            + "'accepted' = the intake returned."
    }

    private func cupsPath(_ lp: LpPrintPath) -> String {
        let preset = switch lp.strictPreset {
        case .ready: "KioskPrint's own receipt preset, given to lpadmin -m everywhere as it is, got a PPD too."
        case .refused(let reason): "KioskPrint's own receipt preset, given to lpadmin -m everywhere as it is: "
            + reason + (reason.hasSuffix(".") || reason.hasSuffix("\"") ? "" : ".")
        }
        let format = lp.timed.last?.documentFormat ?? "(not recorded)"
        return "CUPS \(lp.cupsVersion) (Debian): a cupsd of the bench's own, run by hand (cupsd -f -c cupsd.conf -s "
            + "cups-files.conf, every path in a private folder, LogLevel warn as in Debian's cupsd.conf, a loopback "
            + "port of its own) with the queue from `lpadmin -p receipt -E -v ipp://localhost:PORT/ipp/print -m "
            + "everywhere` (PPD filter \(lp.filter ?? "unknown")): the PDF went through "
            + (lp.filterChain.isEmpty ? "cupsd's filters" : lp.filterChain.joined(separator: ", "))
            + " and the IPP backend, and reached the printer as \(format). The PDF (\(lp.pdfBytes) bytes) is "
            + "TemplateJob.renderPDF on the media MediaSelection gives for the saved capabilities, drawn once before "
            + "timing. Timed from just before lp is spawned; 'completed in cupsd' = the first Get-Job-Attributes "
            + "to cupsd, asked every \(Millis.text(LpPrintPath.pollInterval)) ms from this process (cheaper than "
            + "spawning lpstat), that reads completed. One untimed job first. The printer is a recording printer of "
            + "its own: the 80 mm receipt preset with its default cut (80 x 3000 mm) also listed as a fixed size in "
            + "media-col-database, since CUPS 2.4.2 builds a PPD's page sizes from the fixed sizes there. "
            + preset
    }

    private static func points(_ hundredths: Int) -> String {
        String(format: "%.0f", Double(hundredths) * 72 / 2540)
    }
}
