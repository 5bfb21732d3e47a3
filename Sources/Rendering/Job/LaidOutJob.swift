public import Foundation
public import PrintModel
public import Templates

/// A template job laid out and cut for one printer's media, not yet drawn:
/// what a check at intake makes, drawn afterwards without laying the text
/// out again (the layout is about half of a receipt's drawing time).
///
/// It holds Pango layouts made with this thread's font map, which Pango
/// does not share between threads, so it is deliberately not `Sendable`:
/// draw it on the thread that laid it out, before the caller next suspends.
///
/// ```swift
/// let (check, laidOut) = TemplateCheck.layOut(source, dataJSON: json, dataFile: "order.json", media: media)
/// guard check.isClean, let laidOut else { ... }
/// let raster = try laidOut.renderRaster(format: .pwg)
/// ```
public struct LaidOutJob {
    var composition: Composition
    /// The template's page request: roll or sheet, the cut it asks for.
    public let page: PageRequest
    /// The template asks for the cash drawer after the cut.
    public let opensDrawer: Bool
    /// The media it was laid out on, as the printer's paper was given.
    public let media: PageGeometry
    /// Each piece's length: the cut lengths, in order.
    public let cutLengths: [Length]
    /// Warnings and errors the layout met (a glyph the fonts lack, a barcode that cannot encode).
    public var problems: [RenderProblem] { composition.problems }

    init(composition: Composition, document: LayoutDocument, media: PageGeometry) {
        self.composition = composition
        self.media = media
        page = document.page
        opensDrawer = document.opensDrawer
        cutLengths = composition.pages.map(\.length)
    }

    /// The pages as PWG or Apple raster, drawn and encoded one piece at a
    /// time, as `DocumentRenderer.renderRaster` draws them.
    /// Each page's layout is let go once drawn, so a long job holds one
    /// piece's layout and ink at a time; the job is empty afterwards.
    public mutating func renderRaster(format: RasterWriter.Format,
                                      pixelFormat: RasterPage.PixelFormat = .black1) throws(TemplateJobError) -> RenderedRaster {
        try Self.refuseErrors(problems)
        do { return try DocumentRenderer.renderRaster(&composition, format: format, pixelFormat: pixelFormat, toFile: nil) } catch {
            throw .encoding("\(error)")
        }
    }

    /// Each piece drawn and handed to `each` in turn (a raw printer's pieces),
    /// its layout let go once drawn; the job is empty afterwards.
    /// With `deviceText`, each page leaves the text its printer prints in its
    /// own font out of the ink (see `DeviceTextDrawing`).
    public mutating func renderEach<Piece>(deviceText: DeviceTextDrawing = .none,
                                           _ each: (RenderedPage) throws -> Piece) throws -> [Piece] {
        try Self.refuseErrors(problems)
        var pages = Composition(setup: composition.setup, pages: composition.pages, problems: [])
        composition.pages = []   // owned by `pages` alone now
        return try pages.pages.indices.map {
            try each(DocumentRenderer.draw(pages.take($0), setup: pages.setup, deviceText: deviceText))
        }
    }

    private static func refuseErrors(_ problems: [RenderProblem]) throws(TemplateJobError) {
        let errors = problems.filter(\.isError)
        guard errors.isEmpty else { throw .drawing(errors) }
    }
}

extension TemplateJob {
    /// The job bound to its data and laid out on `media`, to draw later
    /// (on this thread) without laying it out again.
    public func layOut(on media: PageGeometry) throws(TemplateJobError) -> LaidOutJob {
        let document = try bound()
        do {
            return LaidOutJob(composition: try DocumentRenderer(media: media, assets: source.assets).compose(document),
                              document: self.document, media: media)
        } catch { throw .layout(error) }
    }
}
