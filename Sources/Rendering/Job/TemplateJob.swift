public import Foundation
public import PrintModel
public import Templates

/// A template with a job's data: everything needed to draw the pages for a
/// printer. The one path from markup to pages, used by `render`, by
/// `templates check` and by the spooler.
///
/// ```swift
/// let job = try TemplateJob(source: catalog.find("receipt"), dataJSON: json, dataFile: "order.json")
/// let pages = try job.render(on: media)
/// ```
public struct TemplateJob: Sendable {
    public var source: TemplateSource
    /// The template, parsed.
    public var document: LayoutDocument
    public var data: TemplateData
    /// Values the agent provides below the data (`now`, `box`, `counter`).
    public var builtIns: [String: TemplateData]
    /// A line drawn above everything else, in large inverse type, e.g.
    /// `REPRINT` on a job printed again because its first print's fate is
    /// unknown. Part of the content, so the cut length makes room for it.
    public var banner: String?

    public init(source: TemplateSource, data: TemplateData,
                builtIns: [String: TemplateData] = [:]) throws(TemplateJobError) {
        self.source = source
        do { document = try source.parse() } catch { throw .template(error) }
        self.data = data
        self.builtIns = builtIns
    }

    /// The job with its data read from JSON (`dataFile` names it in errors).
    public init(source: TemplateSource, dataJSON: Data, dataFile: String,
                builtIns: [String: TemplateData] = [:]) throws(TemplateJobError) {
        let data: TemplateData
        do { data = try TemplateData(json: dataJSON, file: dataFile) } catch { throw .data(error) }
        try self.init(source: source, data: data, builtIns: builtIns)
    }

    /// The template with the data filled in; every missing value reported at its place.
    public func bound() throws(TemplateJobError) -> LayoutDocument {
        var bound: LayoutDocument
        do { bound = try DataBinder.bind(document, data: data, builtIns: builtIns) } catch { throw .template(error) }
        if let banner {
            var style = TextStyle()
            (style.bold, style.inverse, style.align, style.size) = (true, true, .center, 16)
            let location = SourceLocation(file: "(banner)", line: 1, column: 1)
            bound.body.insert(.text(TextBlock(content: banner, style: style, location: location)), at: 0)
        }
        return bound
    }

    /// The pages for `media`. Fails on anything that would make a wrong page
    /// (missing data, a barcode that cannot encode, a missing image); the
    /// warnings (a glyph the fonts lack, a shortened line) are in `problems`.
    /// With `deviceText` `.painted`, the lines a `native` role's printer
    /// prints in its own font are shown in that font.
    public func render(on media: PageGeometry, deviceText: DeviceTextDrawing = .none) throws(TemplateJobError) -> RenderedDocument {
        let document = try bound()
        let rendered: RenderedDocument
        do { rendered = try DocumentRenderer(media: media, assets: source.assets).render(document, deviceText: deviceText) } catch {
            throw .layout(error)
        }
        guard !rendered.hasErrors else { throw .drawing(rendered.problems.filter(\.isError)) }
        return rendered
    }

    /// The pages as a raster document, drawn and encoded one piece at a time
    /// (memory bounded by the longest piece): what a printer is sent.
    /// With `file`, the document is written there as it is made and `data` is empty.
    public func renderRaster(on media: PageGeometry, format: RasterWriter.Format,
                             pixelFormat: RasterPage.PixelFormat = .black1,
                             toFile file: String? = nil) throws(TemplateJobError) -> RenderedRaster {
        let document = try bound()
        let rendered: RenderedRaster
        do {
            rendered = try DocumentRenderer(media: media, assets: source.assets)
                .renderRaster(document, format: format, pixelFormat: pixelFormat, toFile: file)
        } catch let error as DocumentError {
            throw .layout(error)
        } catch {
            throw .encoding("\(error)")
        }
        guard !rendered.hasErrors else { throw .drawing(rendered.problems.filter(\.isError)) }
        return rendered
    }

    /// The pages as PDF, for printers that take no raster and for people.
    public func renderPDF(on media: PageGeometry) throws(TemplateJobError) -> RenderedPDF {
        let document = try bound()
        let pdf: RenderedPDF
        do {
            pdf = try DocumentRenderer(media: media, assets: source.assets).renderPDF(document, title: source.name)
        } catch { throw .layout(error) }
        let errors = pdf.problems.filter(\.isError)
        guard errors.isEmpty else { throw .drawing(errors) }
        return pdf
    }
}

/// Why a template job cannot be drawn: every problem, each with its place
/// and what to do.
public enum TemplateJobError: Error, Sendable, CustomStringConvertible {
    /// The markup, or data the markup needs (file:line:col each).
    case template(TemplateErrors)
    /// The job's JSON.
    case data(TemplateErrors)
    /// The page does not fit the media, or the cut is out of range.
    case layout(DocumentError)
    /// Blocks that could not be drawn (barcodes, images).
    case drawing([RenderProblem])
    /// The drawn pages could not be written as raster (libcups refused them).
    case encoding(String)

    public var description: String {
        switch self {
        case .template(let errors), .data(let errors): errors.description
        case .layout(let error): error.description
        case .drawing(let problems): problems.map(\.description).joined(separator: "\n")
        case .encoding(let reason): "The pages could not be written as raster: \(reason)."
        }
    }
}
