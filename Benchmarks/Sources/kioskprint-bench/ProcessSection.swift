import BenchSupport
import Foundation

/// Section 2 of the render bench: the whole `kioskprint render` process, as a
/// kiosk script or the spooler's first job pays it (start-up, argument
/// parsing, the template catalog, drawing, writing the file), beside the
/// whole gs process for the same page.
enum ProcessSection {
    private struct Job {
        let caseName: String
        let dpi: Int
        /// The command line after `kioskprint`, with OUT and DATA to fill in.
        let arguments: [String]
    }

    private static let jobs = [
        Job(caseName: "receipt", dpi: 203, arguments: ["render", "receipt", "--out", "OUT"]),
        Job(caseName: RenderCase.longReceipt, dpi: 203,
            arguments: ["render", "receipt", "--data", "DATA", "--out", "OUT"]),
        Job(caseName: "shipping-label", dpi: 300, arguments: ["render", "shipping-label", "--dpi", "300", "--out", "OUT"]),
    ]

    static func addRows(to table: inout BenchTable, kioskprint kioskprintBinary: Result<String, BenchError>, gs: GhostscriptPath?, peak: PeakMemory?,
                        gsFigures: [String: GhostscriptRuns], folder: URL) throws {
        let runs = RenderBench.processRuns
        table.section("2. The whole kioskprint process, template name in, .pwg file out: \(runs) runs after one "
            + "untimed run (ms from spawn to exit; peak memory)")
        // The root package's release build unless --kioskprint says otherwise (KioskprintBinary).
        let kioskprint: String
        switch kioskprintBinary {
        case .success(let path): kioskprint = path
        case .failure(let error):
            table.add("kioskprint render receipt --out X.pwg", "not measured", "-", "-", note: error.description)
            return
        }
        let footnote = table.footnote("The kioskprint of --kioskprint (by default the root package's release build), with no --role (a preview "
            + "page: no database), its output to a file; the 30-item data is the JSON of section 1 in a file. "
            + "gs's figures are the same runs as in section 1; 'gs xN' here is over the whole kioskprint process. "
            + "`kioskprint --help` is the start-up alone (the Swift runtime, the libraries loading), no drawing.")
        progress("kioskprint --help: \(runs) runs")
        let startUp = try ProcessRuns.measure(kioskprint, ["--help"], count: runs, peak: peak, folder: folder)
        table.add("kioskprint --help", startUp.summary, "-", "-", note: "start-up alone \(footnote)")
        for job in jobs {
            let renderCase = try RenderCase.named(job.caseName)
            let data = folder.appendingPathComponent("\(job.caseName).json")
            let out = folder.appendingPathComponent("\(job.caseName)-\(job.dpi).pwg")
            try renderCase.json.write(to: data)
            let arguments = job.arguments.map { $0 == "OUT" ? out.path : $0 == "DATA" ? data.path : $0 }
            progress("kioskprint \(arguments.prefix(2).joined(separator: " ")) (\(renderCase.label)): \(runs) runs")
            let measured = try ProcessRuns.measure(kioskprint, arguments, count: runs, peak: peak, folder: folder)

            let shown = job.arguments.map { $0 == "OUT" ? "X.pwg" : $0 == "DATA" ? "30-items.json" : $0 }
            var notes: [String] = []
            let gsRuns = gsFigures["\(job.caseName)@\(job.dpi)"]
            if let gsRuns { notes.append(RenderTargets.ratio(gsRuns.runs.wall.median, over: measured.wall.median)) }
            notes.append(RenderTargets.memoryVerdict(maxPeakKiB: measured.maxPeakKiB, runs: runs))
            table.add("kioskprint " + shown.joined(separator: " "), measured.summary,
                      gs?.label(dpi: job.dpi) ?? "gs not installed", gsRuns?.runs.summary ?? "not measured",
                      note: notes.joined(separator: "; "))
        }
    }
}
