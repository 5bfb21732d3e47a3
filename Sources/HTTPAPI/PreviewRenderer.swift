import Foundation
import OpenAPIRuntime
import PrintModel
import Rendering
import Spooler
import Templates

/// `POST /v1/render`: a template drawn with data for a role's printer (or an
/// 80 mm preview roll), as PNG or PDF, without queueing anything, so a POS
/// screen can show the customer the receipt it is about to print; and the
/// status page's job previews.
///
/// A preview is drawn whole, one byte per dot, so it is bounded like
/// printing is: the document is laid out first and refused, before any ink
/// is drawn, when its dots pass `maximumDots`. Previews are drawn one at a
/// time on a queue of their own, never on Swift's cooperative threads, so
/// that neither their memory nor their CPU multiplies with the requests.
struct PreviewRenderer: Sendable {
    let intake: JobIntake

    /// The most dots a preview draws: 40 million, about 45 MB at its peak
    /// (5 m of an 80 mm roll at 203 dpi, or one A4 page at 600 dpi).
    static let maximumDots = 40_000_000
    /// The tallest image the PNG writer (cairo) makes.
    static let maximumPNGRows = 32_767
    /// Where previews are drawn, one at a time.
    private static let queue = DispatchQueue(label: "kioskprint.preview", qos: .utility)

    struct Drawing: Sendable {
        var bytes: Data
        var cutLengths: [Length]
    }

    func draw(_ request: Components.Schemas.RenderRequest) async throws -> Drawing {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = try encoder.encode(request.data?.additionalProperties ?? OpenAPIObjectContainer())
        return try await draw(template: request.template, data: data, role: request.role, pdf: request.format == .pdf)
    }

    /// A template with its data (a JSON object's bytes) drawn for `role`'s printer, or the preview roll.
    func draw(template: String, data: Data, role: String?, pdf wantsPDF: Bool) async throws -> Drawing {
        let source: TemplateSource
        do { source = try intake.catalog.find(template) } catch {
            throw APIProblem(.unprocessableContent, "\(error)", field: "template")
        }
        let job: TemplateJob
        do { job = try TemplateJob(source: source, dataJSON: data, dataFile: JobSubmission.bodyName) } catch {
            throw APIProblem(.unprocessableContent, "\(error)", field: "data")
        }
        let (media, deviceText) = try await media(for: job.document.page, role: role)
        let scratch = (intake.spoolFolder as NSString).appendingPathComponent(".preview-\(UUID().uuidString).png")
        let spoolFolder = intake.spoolFolder
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let drawn: Result<Drawing, APIProblem> = await withCheckedContinuation { continuation in
            Self.queue.async {
                do throws(APIProblem) {
                    continuation.resume(returning: .success(try Self.draw(job, on: media, deviceText: deviceText, pdf: wantsPDF,
                                                                          scratch: scratch, spoolFolder: spoolFolder)))
                } catch { continuation.resume(returning: .failure(error)) }
            }
        }
        return try drawn.get()
    }

    /// Lays the job out, refuses it past `maximumDots`, then draws it; on the preview queue.
    private static func draw(_ job: TemplateJob, on media: PageGeometry, deviceText: DeviceTextDrawing, pdf wantsPDF: Bool,
                             scratch: String, spoolFolder: String) throws(APIProblem) -> Drawing {
        do {
            let lengths = try job.layOut(on: media).cutLengths
            let rows = lengths.reduce(0) { $0 + $1.dots(at: media.resolution.vertical) }
            let dots = rows * media.widthInDots
            let total = lengths.reduce(Length.zero, +)
            guard dots <= maximumDots else {
                throw APIProblem(.unprocessableContent, "The preview would be \(total) of paper (\(dots) dots), more than the "
                    + "\(maximumDots) dots a preview draws. It can still be printed; preview fewer items.")
            }
            // The PNG is one image of every piece, with a gap between them, and an image is at most maximumPNGRows tall.
            let height = rows + PNGPreviewSheet.gap * max(0, lengths.count - 1)
            guard wantsPDF || height <= maximumPNGRows else {
                throw APIProblem(.unprocessableContent, "The preview would be \(total) of paper (\(height) rows at "
                    + "\(media.resolution.vertical) dpi), taller than the \(maximumPNGRows) rows a PNG can be. "
                    + "Ask for \"format\": \"pdf\", or preview fewer items; it can still be printed.")
            }
            if wantsPDF {
                let pdf = try job.renderPDF(on: media)
                return Drawing(bytes: pdf.data, cutLengths: pdf.pageLengths)
            }
            // Rendering writes PNG previews to a file (cairo's writer); it is read back and removed.
            let rendered = try job.render(on: media, deviceText: deviceText)
            try FileManager.default.createDirectory(atPath: spoolFolder, withIntermediateDirectories: true)
            try rendered.writePNGPreview(toFile: scratch)
            return Drawing(bytes: try Data(contentsOf: URL(fileURLWithPath: scratch)), cutLengths: rendered.cutLengths)
        } catch let problem as APIProblem {
            throw problem
        } catch let error as TemplateJobError {
            throw APIProblem(.unprocessableContent, "\(error)")
        } catch {
            throw APIProblem(.internalServerError, "The preview could not be written: \(error).")
        }
    }

    /// The role's primary printer's media and the text it prints in its own
    /// font (shown in that font), or the preview roll, all drawn.
    private func media(for page: PageRequest, role name: String?) async throws -> (PageGeometry, DeviceTextDrawing) {
        guard let name else { return (MediaSelection.preview(for: page, width: nil, dpi: 203), .none) }
        let role: Role
        do { role = try Role(name) } catch { throw APIProblem(.unprocessableContent, "\(error)", field: "role") }
        let primary: SavedPrinter?
        do { primary = try await intake.primaryPrinter(of: role) } catch {
            throw APIProblem(.serviceUnavailable, error.message)
        }
        guard let primary else {
            throw APIProblem(.unprocessableContent, "No printer holds the role \"\(role)\". Pick one with `kioskprint printers pick "
                + "--role \(role)`, or leave the role out for an 80 mm preview.", field: "role")
        }
        let deviceText = intake.preparer?.deviceText(role: role, printer: primary).forPreview ?? .none
        do { return (try MediaSelection.media(for: page, on: primary.capabilities), deviceText) } catch {
            throw APIProblem(.unprocessableContent, "\(error)", field: "role")
        }
    }
}
