import Foundation
import Rendering

/// What one `render-one` child measured, sent to the parent as one line of
/// JSON on standard output.
struct RenderTimings: Codable, Sendable {
    var name: String
    var dpi: Int
    /// Each timed run, template + JSON in to PWG bytes out.
    var nanoseconds: [Int64]
    /// The last run's output, so the table can say what was drawn.
    var rasterBytes: Int
    var pages: Int
    var widthDots: Int
    /// All pages together.
    var lengthDots: Int

    var sample: Sample { Sample(nanoseconds.map { .nanoseconds($0) }) }
}

/// The child side of the render bench: draws one case again and again in a
/// process of its own, so that the parent can read this case's peak memory
/// (ru_maxrss) from wait4 when it exits, untouched by the other cases.
enum RenderOne {
    /// Untimed runs first: the first draw loads fonts (fontconfig's cache,
    /// Pango's font map) and pages the code in, which a running agent pays once.
    static let warmUps = 3

    /// `render-one NAME DPI RUNS`.
    static func run(name: String, dpi: Int, runs: Int) -> Never {
        do {
            let renderCase = try RenderCase.named(name)
            var timings: [Int64] = []
            timings.reserveCapacity(runs)
            var result = RenderTimings(name: renderCase.name, dpi: dpi, nanoseconds: [], rasterBytes: 0,
                                       pages: 0, widthDots: 0, lengthDots: 0)
            for index in 0..<(warmUps + runs) {
                let started = ContinuousClock.now
                let (rendered, raster) = try renderToPWG(renderCase, dpi: dpi)
                let elapsed = ContinuousClock.now - started
                if index >= warmUps { timings.append(nanoseconds(elapsed)) }
                // Only figures are kept, not the pages: holding one run's pages
                // while the next is drawn would double the peak memory.
                result.rasterBytes = raster.count
                result.pages = rendered.pages.count
                result.widthDots = rendered.pages.first?.width ?? 0
                result.lengthDots = rendered.pages.reduce(0) { $0 + $1.height }
            }
            result.nanoseconds = timings
            let line = try JSONEncoder().encode(result)
            FileHandle.standardOutput.write(line + Data("\n".utf8))
            exit(0)
        } catch {
            fail("\(name) at \(dpi) dpi: \(error)")
        }
    }

    /// `render-idle`: a child that draws nothing, so the table can show how
    /// much of a case's peak memory is the process itself (runtime, Foundation,
    /// the shared libraries).
    static func idle() -> Never {
        FileHandle.standardOutput.write(Data("{}\n".utf8))
        exit(0)
    }

    /// The path a job takes from the kiosk's JSON to printer bytes: parse the
    /// template and the data, bind, lay out and draw, encode PWG raster.
    static func renderToPWG(_ renderCase: RenderCase, dpi: Int) throws -> (RenderedDocument, Data) {
        let job = try TemplateJob(source: renderCase.source, dataJSON: renderCase.json,
                                  dataFile: "\(renderCase.name) data")
        let media = MediaSelection.preview(for: job.document.page, width: nil, dpi: dpi)
        let rendered = try job.render(on: media)
        return (rendered, try rendered.rasterDocument(.pwg))
    }

    /// The same page as PDF, for the Ghostscript comparison.
    static func renderPDF(_ renderCase: RenderCase, dpi: Int) throws -> Data {
        let job = try TemplateJob(source: renderCase.source, dataJSON: renderCase.json,
                                  dataFile: "\(renderCase.name) data")
        let media = MediaSelection.preview(for: job.document.page, width: nil, dpi: dpi)
        return try job.renderPDF(on: media).data
    }

    private static func nanoseconds(_ duration: Duration) -> Int64 {
        let parts = duration.components
        return parts.seconds * 1_000_000_000 + parts.attoseconds / 1_000_000_000
    }

    private static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("kioskprint-bench render-one: \(message)\n".utf8))
        exit(1)
    }
}
