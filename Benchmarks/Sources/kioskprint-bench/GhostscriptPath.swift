import BenchSupport
import Foundation
import Rendering

/// The way a site gets printer raster without KioskPrint: its own PDF,
/// rasterised by Ghostscript to PWG raster, as CUPS' gstoraster filter does
/// for a driverless (IPP Everywhere) printer.
struct GhostscriptPath: Sendable {
    /// Ghostscript's path, found on PATH.
    let executable: String
    /// `gs --version`, for the table.
    let version: String

    /// Ghostscript, or nil when it is not installed (scripts/install-deps.sh installs it).
    static func locate(folder: URL) -> GhostscriptPath? {
        let searchPath = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        let found = searchPath.split(separator: ":").map { "\($0)/gs" }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
        guard let found, let run = try? MeasuredProcess.mustSucceed(found, ["--version"], folder: folder) else {
            return nil
        }
        return GhostscriptPath(executable: found, version: run.output.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// What the table calls this path.
    func label(dpi: Int) -> String { "gs \(version) pwgraster -r\(dpi), PDF in" }

    /// The arguments, as in gstoraster (less its colour and page-size options,
    /// which come from the printer's PPD or IPP attributes there; here the
    /// PDF's own page size and pwgraster's defaults apply).
    static func arguments(dpi: Int, pdf: String, output: String) -> [String] {
        ["-q", "-dNOPAUSE", "-dBATCH", "-dSAFER", "-sDEVICE=pwgraster", "-r\(dpi)", "-sOutputFile=\(output)", pdf]
    }

    /// Rasterises `pdf` `count` times (after one untimed run), each a new gs process.
    func measure(pdf: Data, name: String, dpi: Int, count: Int, peak: PeakMemory?,
                 folder: URL) throws -> GhostscriptRuns {
        let input = folder.appendingPathComponent("\(name)-\(dpi).pdf")
        let output = folder.appendingPathComponent("\(name)-\(dpi).gs.pwg")
        try pdf.write(to: input)
        defer {
            try? FileManager.default.removeItem(at: input)
            try? FileManager.default.removeItem(at: output)
        }
        let runs = try ProcessRuns.measure(executable, Self.arguments(dpi: dpi, pdf: input.path, output: output.path),
                                           count: count, peak: peak, folder: folder)
        let bytes = (try? FileManager.default.attributesOfItem(atPath: output.path)[.size] as? Int) ?? 0
        return GhostscriptRuns(runs: runs, pdfBytes: pdf.count, rasterBytes: bytes,
                               page: Self.describe(pwgAt: output))
    }

    /// What gs wrote, in PWG's words (`black_1, 639x1285`), read back with
    /// KioskPrint's own raster reader.
    private static func describe(pwgAt url: URL) -> String {
        guard let header = (try? RasterReader.read(path: url.path))?.first?.header else { return "unreadable" }
        let spaces: [UInt32: String] = [3: "black", 6: "cmyk", 18: "sgray", 19: "srgb", 20: "adobe-rgb"]
        let space = spaces[header.colorSpace] ?? "space \(header.colorSpace)"
        return "\(space)_\(header.bitsPerPixel), \(header.width)x\(header.height)"
    }
}

/// Ghostscript's figures for one page.
struct GhostscriptRuns: Sendable {
    var runs: ProcessRuns
    var pdfBytes: Int
    var rasterBytes: Int
    /// The first page: `black_1, 639x1285` (PWG's pixel format, dots).
    var page: String
}
