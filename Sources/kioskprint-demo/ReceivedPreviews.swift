import CommandLineOutput
import Foundation
import PrintModel
import Rendering
import Simulator

/// The demo's last part: what each simulated printer received, read back
/// from the document it kept (PWG raster or URF, with libcups) into a PNG,
/// and the pieces the raw coupon printer cut, each checked against the jobs
/// the agent reported ended.
struct ReceivedPreviews {
    let lab: PrinterLab
    let coupon: DemoCouponPrinter
    let kitchen: DemoKitchenPrinter
    /// `<previews>/received`.
    let folder: String

    func show(ended jobs: [PrintJob]) throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for old in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] where old.hasSuffix(".png") {
            try? FileManager.default.removeItem(atPath: folder + "/" + old)
        }
        print("\nWhat the printers received (IPP documents read back with libcups, the raw printers' pieces as their "
            + "simulators cut them; previews in \(folder)):")
        var table = TextTable("PRINTER", "JOB NAME", "FORMAT", "MEDIA-COL SIZE", "PAGES", "PNG")
        var seen: Set<JobID> = []
        for printer in lab.printers {
            for (index, received) in try printer.receivedJobs().enumerated() {
                let png = "\(folder)/\(Self.slug(printer.name))-\(index + 1).png"
                let pages = try preview(received, to: png, printer: printer.name)
                guard let job = jobs.first(where: { received.jobName.contains($0.marker) }) else {
                    throw demoFailure("\(printer.name) received \"\(received.jobName)\", which is none of the demo's jobs.")
                }
                try check(received, of: job, at: printer, pages: pages)
                seen.insert(job.id)
                table.add(printer.name, received.jobName, received.documentFormat ?? "-",
                          Self.mediaSize(received.attributes["IPP_MEDIA_COL"]) ?? "-", "\(pages)", png)
            }
        }
        let raw = try coupon.received(jobs, folder: folder)
        seen.insert(raw.job.id)
        // The till's job through the raw port was checked byte for byte when it was sent (DemoRawTill).
        seen.formUnion(jobs.filter { $0.name.contains("raw job from") && $0.state == .completed }.map(\.id))
        table.add(raw.row)
        let star = try kitchen.received(jobs, folder: folder)
        if let star { seen.insert(star.job.id); table.add(star.row) }
        print(table.render())
        print(raw.line)
        if let star { print(star.line) }
        let lost = jobs.filter { !seen.contains($0.id) }
        guard lost.isEmpty else {
            throw demoFailure("no printer received \(lost.map { "job \($0.id) \"\($0.name)\"" }.joined(separator: ", ")), "
                + "though the agent reported them completed.")
        }
    }

    /// Writes the received document's pages as one PNG; returns the page count.
    private func preview(_ received: ReceivedJob, to png: String, printer: String) throws -> Int {
        let what = "\(printer)'s job \(received.jobID) (\(received.documentFormat ?? "no format"))"
        let pages: [RasterReader.Page]
        do { pages = try RasterReader.read(path: received.documentPath.path) } catch {
            throw demoFailure("\(what) could not be read back as raster: \(error).")
        }
        let rasters = pages.compactMap(\.raster)
        guard rasters.count == pages.count else {
            throw demoFailure("\(what) has pages in a pixel layout the preview does not draw (not black_1 or sgray_8).")
        }
        try RasterPreview.writePNG(rasters, toFile: png)
        return pages.count
    }

    /// The job reached the printer its role holds, and a roll job's media-col
    /// carries the cut length the agent computed, to the hundredth of a millimetre.
    private func check(_ received: ReceivedJob, of job: PrintJob, at printer: RunningPrinter, pages: Int) throws {
        guard job.printer.flatMap({ URL(string: $0.uri)?.port }) == printer.port else {
            throw demoFailure("job \(job.id) \"\(job.name)\" (role \(job.role)) was received by \(printer.name), "
                + "not by the printer the agent recorded (\(job.printer?.name ?? "none")).")
        }
        if let expected = job.pagesExpected, expected != pages {
            throw demoFailure("job \(job.id) \"\(job.name)\" arrived with \(pages) page(s), not \(expected).")
        }
        if let cuts = job.cutLengths, let cut = cuts.first, cuts.count == 1,
           received.attributes["IPP_MEDIA_COL"]?.contains("y-dimension=\(cut)") != true {
            throw demoFailure("job \(job.id) \"\(job.name)\" should be cut at \(cut) hundredths of a mm, but its media-col "
                + "was \(received.attributes["IPP_MEDIA_COL"] ?? "missing").")
        }
    }

    /// `80 x 173.55 mm` from `{media-size={x-dimension=8000 y-dimension=17355} ...}`.
    static func mediaSize(_ mediaCol: String?) -> String? {
        guard let mediaCol, let x = number(after: "x-dimension=", in: mediaCol),
              let y = number(after: "y-dimension=", in: mediaCol) else { return nil }
        return "\(millimetres(x)) x \(millimetres(y)) mm"
    }

    private static func number(after key: String, in text: String) -> Int? {
        guard let range = text.range(of: key) else { return nil }
        return Int(text[range.upperBound...].prefix { $0.isNumber })
    }

    private static func millimetres(_ hundredths: Int) -> String {
        hundredths % 100 == 0 ? "\(hundredths / 100)"
            : hundredths % 10 == 0 ? String(format: "%.1f", Double(hundredths) / 100)
            : String(format: "%.2f", Double(hundredths) / 100)
    }

    /// `kioskprint-receipt-80mm` for "KioskPrint Receipt 80mm".
    static func slug(_ name: String) -> String {
        name.lowercased().map { $0.isLetter || $0.isNumber ? String($0) : "-" }.joined()
            .split(separator: "-").joined(separator: "-")
    }
}
