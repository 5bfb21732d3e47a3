import BenchSupport
import Foundation

/// `kioskprint-bench render`: how long KioskPrint takes to turn a template
/// and the kiosk's JSON into printer raster, and how much memory it needs,
/// beside Ghostscript rasterising the same page from PDF. Needs no root and
/// no PrinterLab: it only draws and spawns.
enum RenderBench {
    static let resolutions = [203, 300]
    /// Timed runs per case in a child, after `RenderOne.warmUps` untimed ones.
    static let runs = 50
    /// Runs of each whole process (gs, kioskprint render), after one untimed one.
    static let processRuns = 10

    /// `kioskprint`: the binary section 2 runs, or why there is none (the
    /// section then says so in its row, and section 1 still stands).
    static func run(kioskprint: Result<String, BenchError>) -> Never {
        let facts = MachineFacts.current()
        let load = MachineFacts.loadAverage()
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("kioskprint-bench-render-\(getpid())")
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let began = ContinuousClock.now
            let table = try measure(folder: folder, kioskprint: kioskprint)
            print(facts.summary + "  load \(load) (1 min, at start)")
            print("")
            print(table.render())
            print("Measured in \(Millis.text(ContinuousClock.now - began)) ms, load \(MachineFacts.loadAverage()) at the end; "
                + "ms = milliseconds, med = median, MB = 2^20 bytes of peak resident memory (ru_maxrss).")
        } catch {
            FileHandle.standardError.write(Data("kioskprint-bench render: \(error)\n".utf8))
            try? FileManager.default.removeItem(at: folder)
            exit(1)
        }
        exit(0)
    }

    /// What every row of section 1 shares.
    private struct Tools {
        let bench: String
        let gs: GhostscriptPath?
        let peak: PeakMemory?
        let folder: URL
    }

    private static func measure(folder: URL, kioskprint: Result<String, BenchError>) throws -> BenchTable {
        let tools = Tools(bench: try ownExecutablePath(), gs: GhostscriptPath.locate(folder: folder),
                          peak: PeakMemory.locate(folder: folder), folder: folder)
        var table = BenchTable()

        progress("memory baseline: a bench child that draws nothing")
        let idle = try ProcessRuns.measure(tools.bench, ["render-idle"], count: 3, peak: tools.peak, folder: folder)
        let spawnedTrue = try MeasuredProcess.mustSucceed("/bin/true", [], folder: folder)

        table.section("1. Template + JSON to PWG raster in memory, per page: \(runs) runs after \(RenderOne.warmUps) "
            + "warm-ups, each case in its own process (ms; peak memory of that process)")
        let firstNotes = [
            table.footnote("Timed inside one process: TemplateJob(source:dataJSON:) (parse the markup and the JSON), "
                + "MediaSelection.preview (an 80 mm roll for roll templates, a sheet of its own size for the others), "
                + "render (bind, lay out, draw with Pango/cairo, encode barcodes) and rasterDocument(.pwg) (black_1), "
                + "the bytes kept in memory. Size = dots across x dots along the paper."),
            table.footnote("Peak = ru_maxrss from wait4 on the process's pid, taken by GNU time (/usr/bin/time -f %M). "
                + "Not from the bench's own wait4: posix_spawn shares the bench's memory until the exec, and Linux "
                + "starts the child's ru_maxrss from that memory's high-water mark (/bin/true spawned by the bench "
                + "'peaks' at \(Megabytes.text(spawnedTrue.spawnerBoundKiB))). A child's peak includes the process "
                + "itself: a bench child that draws nothing peaks at \(Megabytes.text(idle.medianPeakKiB))."),
            table.footnote("The same page as PDF from job.renderPDF (not timed, so this side is a lower bound), "
                + "rasterised by a new gs process per job as CUPS' gstoraster does: `gs -q -dNOPAUSE -dBATCH -dSAFER "
                + "-sDEVICE=pwgraster -rDPI -sOutputFile=OUT.pwg IN.pdf`, spawn to exit, \(processRuns) runs after "
                + "one untimed run (and \(processRuns) more under GNU time for the peak). 'gs xN' = gs's median over "
                + "KioskPrint's in-process median, gs's start-up included; section 2 compares whole processes."),
        ]
        var gsFigures: [String: GhostscriptRuns] = [:]
        var targetsNote: String?
        var isFirstRow = true
        var receiptPage: RenderTimings?
        for renderCase in try RenderCase.all() {
            for dpi in resolutions {
                let (timings, peakKiB) = try drawInChild(renderCase, dpi: dpi, tools: tools)
                let sample = timings.sample
                if renderCase.name == "receipt" && dpi == 203 { receiptPage = timings }
                var notes: [String] = []
                var figure = "not measured"
                if let gs = tools.gs {
                    progress("\(renderCase.label) at \(dpi) dpi: gs, \(processRuns) + \(processRuns) runs")
                    let pdf = try RenderOne.renderPDF(renderCase, dpi: dpi)
                    let gsRuns = try gs.measure(pdf: pdf, name: renderCase.name, dpi: dpi, count: processRuns,
                                                peak: tools.peak, folder: folder)
                    gsFigures["\(renderCase.name)@\(dpi)"] = gsRuns
                    figure = gsRuns.runs.summary
                    notes.append(RenderTargets.ratio(gsRuns.runs.wall.median, over: sample.median))
                } else {
                    notes.append("gs not installed: run scripts/install-deps.sh")
                }
                if let verdict = RenderTargets.verdict(caseName: renderCase.name, dpi: dpi, sample: sample) {
                    let marker = targetsNote ?? table.footnote("Issue 3's targets, per page from template + JSON to "
                        + "raster bytes: met when the median is under the target; the p90 is checked beside it.")
                    targetsNote = marker
                    notes.append("\(verdict) \(marker)")
                }
                if isFirstRow { notes += firstNotes }
                isFirstRow = false
                table.add("\(renderCase.label), \(dpi) dpi, \(pageSize(timings))",
                          "med \(Millis.text(sample.median)) / p90 \(Millis.text(sample.percentile(0.9))) ms, "
                            + "peak \(Megabytes.text(peakKiB))",
                          tools.gs?.label(dpi: dpi) ?? "gs pwgraster -r\(dpi), PDF in", figure,
                          note: notes.joined(separator: "; "))
            }
        }
        if let receipt = gsFigures["receipt@203"], let ours = receiptPage {
            _ = table.footnote("The same kind of page on both sides: for the receipt at 203 dpi gs wrote "
                + "\(receipt.page) (\(receipt.rasterBytes) bytes, from a \(receipt.pdfBytes)-byte PDF), KioskPrint "
                + "black_1, \(ours.widthDots)x\(ours.lengthDots) (\(ours.rasterBytes) bytes).")
        }

        try ProcessSection.addRows(to: &table, kioskprint: kioskprint, gs: tools.gs, peak: tools.peak,
                                   gsFigures: gsFigures, folder: folder)
        return table
    }

    /// One case drawn `runs` times in a child of its own (`render-one`),
    /// under GNU time when there is one; its timings and its peak.
    private static func drawInChild(_ renderCase: RenderCase, dpi: Int,
                                    tools: Tools) throws -> (RenderTimings, Int?) {
        progress("\(renderCase.label) at \(dpi) dpi: \(runs) draws in a child")
        let arguments = ["render-one", renderCase.name, "\(dpi)", "\(runs)"]
        let output: String
        var peakKiB: Int?
        if let peak = tools.peak {
            let run = try peak.run(tools.bench, arguments, folder: tools.folder)
            (output, peakKiB) = (run.output, run.peakKiB)
        } else {
            output = try MeasuredProcess.mustSucceed(tools.bench, arguments, folder: tools.folder).output
        }
        return (try JSONDecoder().decode(RenderTimings.self, from: Data(output.utf8)), peakKiB)
    }

    /// `640x1562` or `2 pages, 640x3124`.
    private static func pageSize(_ timings: RenderTimings) -> String {
        let dots = "\(timings.widthDots)x\(timings.lengthDots)"
        return timings.pages == 1 ? dots : "\(timings.pages) pages, \(dots)"
    }
}
