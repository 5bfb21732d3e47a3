import Foundation
import PrintModel
import Rendering
import Synchronization

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
    static let program = "/usr/bin/gs"
    /// A receipt draws in a fraction of a second; a PDF that takes this long is not a receipt.
    static let timeLimit: Duration = .seconds(60)

    static func render(path: String, dpi: Int, name: String) throws(DeliveryError) -> [RasterDocument.Page] {
        let (data, message) = try ghostscript(["-sstdout=%stderr", "-dUseCropBox", "-dLastPage=\(RasterDocument.maximumPages + 1)",
                                                "-sDEVICE=pgmraw", "-r\(dpi)", "-sOutputFile=%stdout", "-f", path], name: name, dpi: dpi)
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
        _ = try ghostscript(["-sstdout=%stderr", "-sDEVICE=pdfwrite", "-sPageList=\(list)", "-sOutputFile=\(output)", "-f", path],
                            name: name, dpi: nil)
    }

    /// `select` on a thread of its own, off Swift's cooperative pool, which Ghostscript would hold while it works.
    public static func selecting(path: String, pages ranges: [ClosedRange<Int>], into output: String,
                                 name: String) async throws(DeliveryError) {
        let result: Result<Void, DeliveryError> = await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(returning: Result { () throws(DeliveryError) in try select(path: path, pages: ranges, into: output, name: name) })
            }
        }
        try result.get()
    }

    /// How many pages the PDF at `path` has, as Ghostscript reads it.
    static func pageCount(path: String, name: String) throws(DeliveryError) -> Int {
        let literal = path.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "(", with: "\\(")
            .replacingOccurrences(of: ")", with: "\\)")
        let (data, message) = try ghostscript(["-dNODISPLAY", "--permit-file-read=\(path)", "-c",
                                               "(\(literal)) (r) file runpdfbegin pdfpagecount = quit"], name: name, dpi: nil)
        guard let count = Int(String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)), count > 0 else {
            throw .badContent("\(name) could not be read as a PDF: Ghostscript found no page in it\(message.isEmpty ? "" : " (\(message))").")
        }
        return count
    }

    /// Runs Ghostscript with `-dSAFER` and `arguments`, with the time and output
    /// limits; its standard output, and the last of what it said.
    private static func ghostscript(_ arguments: [String], name: String, dpi: Int?) throws(DeliveryError) -> (Data, String) {
        guard FileManager.default.isExecutableFile(atPath: program) else {
            throw .badContent("\(name) is a PDF that KioskPrint draws (or trims) with Ghostscript, which is not installed: "
                + "`apt install ghostscript`, then retry the job.")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = ["-q", "-dSAFER", "-dBATCH", "-dNOPAUSE", "-dNOPROMPT"] + arguments
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        do { try process.run() } catch {
            throw .badContent("Ghostscript (\(program)) could not be started for \(name): \(error.localizedDescription).")
        }
        let pid = process.processIdentifier
        // Stopped when it runs too long; SIGKILL, since a hung interpreter may not heed SIGTERM.
        let finished = Mutex(false)
        DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(Int(timeLimit.components.seconds))) {
            if !finished.withLock({ $0 }) { kill(pid, SIGKILL) }
        }
        let said = Mutex(Data())
        let errorReader = DispatchGroup()
        let errorHandle = errors.fileHandleForReading
        DispatchQueue.global().async(group: errorReader) {
            let text = errorHandle.readDataToEndOfFile()
            said.withLock { $0 = text.suffix(4096) }
        }
        var data = Data()
        var tooLarge = false
        let handle = output.fileHandleForReading
        while let chunk = try? handle.read(upToCount: 1 << 20), !chunk.isEmpty {
            data.append(chunk)
            if data.count > RenderLimits.maximumDrawnDocumentBytes + 4096 {
                tooLarge = true
                kill(pid, SIGKILL)
                break
            }
        }
        process.waitUntilExit()
        finished.withLock { $0 = true }
        errorReader.wait()
        let message = String(decoding: said.withLock { $0 }, as: UTF8.self).split(separator: "\n").suffix(3).joined(separator: " ")
        if tooLarge {
            throw .badContent("\(name) draws to more than \(RenderLimits.maximumDrawnDocumentBytes >> 20) MB of pages"
                + (dpi.map { " at \($0) dpi" } ?? "") + "; a kiosk prints receipts and tickets. Send fewer or smaller pages.")
        }
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            let how = process.terminationReason == .uncaughtSignal ? "was stopped (signal \(process.terminationStatus), "
                + "after \(timeLimit.components.seconds) s or a crash)" : "failed (exit \(process.terminationStatus))"
            throw .badContent("\(name) could not be drawn: Ghostscript \(how)\(message.isEmpty ? "" : ": \(message)"). "
                + "Check that the PDF opens, or export it again.")
        }
        return (data, message)
    }
}
