import Foundation
import PrintModel
import Rendering

/// A PDF's pages drawn at a printer's own resolution, for a printer that
/// does not take PDF (an ESC/POS or ZPL printer): Ghostscript draws each
/// page to a greymap, and the pages then go the way a client's raster
/// pages go (cropped to the printable width, each cut at its own length).
///
/// Ghostscript runs in a process of its own, with `-dSAFER`: a PDF that
/// crashes or hangs it costs that process, not the agent. It is stopped
/// after `timeLimit`, its output is bounded by the limits of drawn pages
/// (100 pages, 96 MB), and what it said on failure is in the error.
public enum PDFPages {
    static func render(path: String, dpi: Int, name: String) throws(DeliveryError) -> [RasterDocument.Page] {
        let output = scratch(name)
        defer { unlink(output) }
        let message = try ghostscript(["-dUseCropBox", "-dLastPage=\(RasterDocument.maximumPages + 1)", "-sDEVICE=pgmraw",
                                       "-r\(dpi)", "-f", path], output: output, name: name)
        let data = FileManager.default.contents(atPath: output) ?? Data()
        let images: [GrayImage]
        do { images = try PGMCodec.decodeAll([UInt8](data), name: name, limit: RasterDocument.maximumPages) } catch {
            throw .badContent("\(name) could not be drawn: \(error)")
        }
        guard !images.isEmpty else {
            throw .badContent("\(name) could not be drawn: Ghostscript found no page in it\(message.isEmpty ? "" : " (\(message))"). "
                + "Check that the PDF opens, or export it again.")
        }
        return images.map { RasterDocument.Page(image: $0, resolution: Resolution(dpi), isBilevel: false) }
    }

    /// The PDF at `path` with only the pages in `ranges` (IPP's `page-ranges`,
    /// 1-based), written to `output` by Ghostscript's pdfwrite. Pages past the
    /// document's end are left out; ranges that select none are refused.
    public static func select(path: String, pages ranges: [ClosedRange<Int>], into output: String, name: String) throws(DeliveryError) {
        let count = try pageCount(path: path, name: name)
        let kept = ranges.compactMap { range -> ClosedRange<Int>? in
            range.lowerBound <= count ? range.lowerBound...min(range.upperBound, count) : nil
        }
        guard !kept.isEmpty else {
            throw .badContent("\(name) has \(count) page\(count == 1 ? "" : "s"), so page-ranges "
                + "\(ranges.map { "\($0.lowerBound)-\($0.upperBound)" }.joined(separator: ",")) selects none of them.")
        }
        let list = kept.map { $0.lowerBound == $0.upperBound ? "\($0.lowerBound)" : "\($0.lowerBound)-\($0.upperBound)" }
            .joined(separator: ",")
        _ = try ghostscript(["-sDEVICE=pdfwrite", "-sPageList=\(list)", "-f", path], output: output, name: name)
    }

    /// `select` on a thread of its own, off Swift's cooperative pool, which Ghostscript would hold while it works.
    public static func selecting(path: String, pages ranges: [ClosedRange<Int>], into output: String,
                                 name: String) async throws(DeliveryError) {
        try await BlockingWork.run { () throws(DeliveryError) in try select(path: path, pages: ranges, into: output, name: name) }
    }

    /// How many pages the PDF at `path` has, as Ghostscript reads it.
    static func pageCount(path: String, name: String) throws(DeliveryError) -> Int {
        let literal = path.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "(", with: "\\(")
            .replacingOccurrences(of: ")", with: "\\)")
        let output = scratch(name)
        defer { unlink(output) }
        // The count is printed to PostScript's stdout, sent to the output file.
        let message = try ghostscript(["-dNODISPLAY", "--permit-file-read=\(path)", "-sstdout=\(output)", "-c",
                                       "(\(literal)) (r) file runpdfbegin pdfpagecount = quit"], output: "/dev/null", name: name)
        let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        guard let count = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)), count > 0 else {
            throw .badContent("\(name) could not be read as a PDF: Ghostscript found no page in it\(message.isEmpty ? "" : " (\(message))").")
        }
        return count
    }

    /// A new file name for Ghostscript's output, in the temporary folder.
    private static func scratch(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("kioskprint-gs-\(UUID().uuidString)").path
    }

    private static func ghostscript(_ arguments: [String], output: String, name: String) throws(DeliveryError) -> String {
        do {
            return try Ghostscript.run(arguments, output: output, outputLimit: RenderLimits.maximumDrawnDocumentBytes + 4096)
        } catch {
            throw .badContent("\(name) could not be drawn: \(error.reason). Check that the PDF opens, or export it again.")
        }
    }
}
