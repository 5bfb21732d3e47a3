import BenchSupport
import Foundation
import PrintModel
import PrinterLanguages
import Rendering
import Spooler
import Templates

/// A template job taken in as a watched folder's job is, and drawn as the
/// agent draws it ahead for the role's printer: the catalog's template, the
/// data read strictly, the check's layout, then PWG raster for an 80 mm IPP
/// printer at 203 dpi, or ESC/POS raster for a raw TM-T20III. What
/// `render-intake` times (a loop to run under perf) and what
/// `render-golden` writes out, so a change to the drawing can be shown to
/// leave every byte as it was.
enum IntakeDrawing {
    /// The 80 mm IPP receipt printer the tests use: PWG raster at 203 dpi, cut after each page.
    static let ippPrinter = PrinterCapabilities(
        name: "Bench Receipt", kinds: [.receipt, .roll], documentFormats: ["image/pwg-raster"],
        resolutions: Resolutions(pwgRaster: [Resolution(203)], appleRaster: [], printer: [Resolution(203)],
                                 preferred: Resolution(203)),
        rolls: [RollMedia(width: .millimetres(80), cutLengths: .millimetres(25)...Length.millimetres(3000),
                          margins: Margins(left: .millimetres(4), right: .millimetres(4)), source: "main-roll")],
        trims: [.afterPages])

    /// The same printer taking Apple raster only.
    static let urfPrinter: PrinterCapabilities = {
        var printer = ippPrinter
        printer.documentFormats = ["image/urf"]
        printer.resolutions = Resolutions(pwgRaster: [], appleRaster: [Resolution(203)], printer: [Resolution(203)],
                                          preferred: Resolution(203))
        return printer
    }()

    /// A raw ESC/POS printer from the model catalog.
    static func rawProfile() throws -> RawProfile { try ModelCatalog.profile(model: "TM-T20III") }

    /// The intake's steps for one job, drawn for `printer`: the bytes a
    /// printer would be sent (ESC/POS encoded for a raw profile).
    static func draw(source name: String, catalog: TemplateCatalog, json: Data, for printer: PrinterCapabilities,
                     raw: RawProfile? = nil) throws -> [UInt8] {
        let preparer = DocumentPreparer(catalog: catalog)
        let document = try preparer.prepare(template: name, dataJSON: String(decoding: json, as: UTF8.self),
                                            jobName: "bench", for: printer)
        guard let raw, let pieces = document.rawPieces else { return [UInt8](document.data) }
        let job = RawJob(pieces: pieces, cut: raw.cutter.cut(preferring: .partial))
        return try raw.commandLanguage.encode(job)
    }

    /// The intake's own steps for a folder's job (`JobIntake.queueTemplate`
    /// with data bytes): the data read strictly, the template found, its page
    /// for the printer's media, the check's layout, then the drawing ahead.
    static func intake(source name: String, catalog: TemplateCatalog, json: Data, for printer: PrinterCapabilities,
                       raw: RawProfile? = nil) throws -> Int {
        _ = try TemplateData(json: json, file: "bench.json")
        let source = try catalog.find(name)
        let media = try MediaSelection.media(for: source.parse().page, on: printer)
        let (check, kept) = TemplateCheck.layOut(source, dataJSON: Data(String(decoding: json, as: UTF8.self).utf8),
                                                 dataFile: "bench.json", media: media)
        guard check.isClean, var laidOut = kept else { throw BenchError(check.errors.joined(separator: "\n")) }
        guard let raw else { return try laidOut.renderRaster(format: .pwg).data.count }
        let pieces = try laidOut.renderEach { page in
            let raster = page.rasterPage(format: .black1)
            let printable = media.printableDots(pageLength: page.length)
            guard let whole = MonoBitmap(width: raster.width, height: raster.height, rows: raster.pixels),
                  let piece = whole.columns(printable.x ..< printable.x + printable.width) else {
                throw BenchError("the piece does not hold its printable width")
            }
            return piece
        }
        return try raw.commandLanguage.encode(RawJob(pieces: pieces, cut: raw.cutter.cut(preferring: .partial))).count
    }

    /// The render bench's own path (preview page, whole document, then PWG), for `render-golden`.
    static func preview(_ source: TemplateSource, json: Data, dpi: Int) throws -> [UInt8] {
        let job = try TemplateJob(source: source, dataJSON: json, dataFile: "\(source.name) data")
        let media = MediaSelection.preview(for: job.document.page, width: nil, dpi: dpi)
        return [UInt8](try job.render(on: media).rasterDocument(.pwg))
    }

    /// `render-golden DIR [TEMPLATE.xml ...]`: every case's bytes as files in DIR,
    /// an error's text in place of the bytes where a case cannot be drawn.
    static func writeGolden(to folder: String, extraTemplates: [String]) throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        var cases: [(name: String, catalog: TemplateCatalog, source: TemplateSource, json: Data)] = []
        for renderCase in try RenderCase.all() {
            cases.append((renderCase.name, TemplateCatalog(), renderCase.source, renderCase.json))
        }
        // A job names its template from a catalog: each extra file's folder is one.
        for path in extraTemplates {
            let source = try TemplateCatalog().find(nameOrFile: path)
            cases.append((source.name, TemplateCatalog(folders: [(path as NSString).deletingLastPathComponent]), source,
                          Data((source.sampleData ?? "{}").utf8)))
        }
        let raw = try rawProfile()
        let rawPrinter = raw.capabilities(name: "Bench Raw")
        for item in cases {
            let outputs: [(String, () throws -> [UInt8])] = [
                ("pwg", { try draw(source: item.source.name, catalog: item.catalog, json: item.json, for: ippPrinter) }),
                ("urf", { try draw(source: item.source.name, catalog: item.catalog, json: item.json, for: urfPrinter) }),
                ("escpos", { try draw(source: item.source.name, catalog: item.catalog, json: item.json, for: rawPrinter,
                                      raw: raw) }),
                ("preview203.pwg", { try preview(item.source, json: item.json, dpi: 203) }),
                ("preview300.pwg", { try preview(item.source, json: item.json, dpi: 300) }),
            ]
            for (suffix, make) in outputs {
                let bytes: [UInt8]
                do { bytes = try make() } catch { bytes = Array("error: \(error)".utf8) }
                try Data(bytes).write(to: URL(fileURLWithPath: "\(folder)/\(item.name).\(suffix)"))
            }
        }
    }

    /// `render-intake NAME RUNS`: the intake's drawing of one case RUNS
    /// times for each printer kind; prints the median per job.
    static func loop(name: String, runs: Int, only: String?) throws {
        let renderCase = try RenderCase.named(name)
        let raw = try rawProfile()
        let kinds: [(String, PrinterCapabilities, RawProfile?)] = [
            ("pwg", ippPrinter, nil), ("escpos", raw.capabilities(name: "Bench Raw"), raw),
        ]
        for (kind, printer, profile) in kinds where only == nil || only == kind {
            var times: [Duration] = []
            for _ in 0..<(runs + 3) {
                let started = ContinuousClock.now
                _ = try intake(source: renderCase.source.name, catalog: TemplateCatalog(), json: renderCase.json,
                               for: printer, raw: profile)
                times.append(ContinuousClock.now - started)
            }
            let sample = Sample(Array(times.dropFirst(3)))
            print("\(renderCase.label), \(kind): med \(Millis.text(sample.median)) / p90 "
                + "\(Millis.text(sample.percentile(0.9))) ms over \(runs) runs")
        }
    }
}
