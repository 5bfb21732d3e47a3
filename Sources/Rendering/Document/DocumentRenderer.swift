import Foundation
public import PrintModel
public import Templates

/// Turns a bound template into pages for one printer's media: lays the
/// content out, decides where the paper is cut (`CutPlanner`), and draws
/// each cut piece, with the header and footer on every page.
///
/// ```swift
/// let renderer = DocumentRenderer(media: geometry, assets: source.assets)
/// let rendered = try renderer.render(boundDocument)
/// let pwg = try rendered.rasterDocument(.pwg)
/// ```
///
/// Every output (raster, PDF, PNG preview) draws the same composition, and
/// each page's `length` is the one cut length used everywhere: the raster
/// page height, the PDF page size and the job's media-col y-dimension.
public struct DocumentRenderer: Sendable {
    /// The printer's media: roll or sheet, margins, resolution.
    public var media: PageGeometry
    /// Where `<image src>` files are read: the template's folder or its embedded files.
    public var assets: TemplateAssets
    /// Keep images grey instead of dithering them (8-bit raster, PDF).
    public var keepsImagesGray = false

    public init(media: PageGeometry, assets: TemplateAssets = .none) {
        self.media = media
        self.assets = assets
    }

    /// The pages, drawn as ink at the media's resolution; with
    /// `deviceText` `.painted`, the lines a `native` role's printer prints in
    /// its own font are shown in that font (what the printer will print).
    public func render(_ document: LayoutDocument, deviceText: DeviceTextDrawing = .none) throws(DocumentError) -> RenderedDocument {
        let composition = try compose(document)
        let pages = composition.pages.map { Self.draw($0, setup: composition.setup, deviceText: deviceText) }
        return RenderedDocument(setup: composition.setup, pages: pages, problems: composition.problems)
    }

    /// The document as PWG or Apple raster, drawn and encoded one piece of
    /// paper at a time: memory holds one piece's ink (the longest cut) and
    /// the encoded bytes, never every piece at once, so a 20,000-line report
    /// costs what its longest piece does, not what its length does.
    /// - Parameter file: where to write it as it is made (`kioskprint
    ///   render`); nil keeps it in `RenderedRaster.data` (what is sent).
    public func renderRaster(_ document: LayoutDocument, format: RasterWriter.Format,
                             pixelFormat: RasterPage.PixelFormat = .black1, toFile file: String? = nil) throws -> RenderedRaster {
        var composition = try compose(document)
        return try Self.renderRaster(&composition, format: format, pixelFormat: pixelFormat, toFile: file)
    }

    /// A composition drawn and encoded piece by piece (see above). Each page's
    /// layout is let go once drawn, which only frees it while `composition`
    /// is the sole owner of its pages (hence `inout`, never a copy).
    static func renderRaster(_ composition: inout Composition, format: RasterWriter.Format,
                             pixelFormat: RasterPage.PixelFormat, toFile file: String?) throws -> RenderedRaster {
        let setup = composition.setup, lengths = composition.pages.map(\.length), problems = composition.problems
        let writer = RasterWriter(format: format), count = composition.pages.count
        var pages = Composition(setup: setup, pages: composition.pages, problems: [])
        composition.pages = []   // owned by `pages` alone now
        let page = { (index: Int) -> RasterWriter.Page in
            let page = Self.draw(pages.take(index), setup: setup)
            return RasterWriter.Page(page.rasterPage(format: pixelFormat), options: RenderedDocument.rasterOptions(length: page.length, media: setup.media))
        }
        var data = Data()
        if let file { try writer.write(pageCount: count, page: page, toFile: file) } else {
            data = try writer.encode(pageCount: count, page: page)
        }
        return RenderedRaster(data: data, cutLengths: lengths, widthDots: setup.media.widthInDots, problems: problems)
    }

    /// The document laid out and cut into pieces, without drawing them: every
    /// problem drawing would meet (a barcode too wide, a missing glyph, a cut
    /// out of range) and each piece's length, at the cost of the layout alone.
    /// What a check at intake needs; the drawing is left to the printer's turn.
    public func layOut(_ document: LayoutDocument) throws(DocumentError) -> (cutLengths: [Length], problems: [RenderProblem]) {
        let composition = try compose(document)
        return (composition.pages.map(\.length), composition.problems)
    }

    /// One composed page drawn as ink over the media's whole width. With
    /// `deviceText`, the lines the printer prints in its own font are left
    /// out of the ink and handed back in `RenderedPage.deviceText`, or, for
    /// a preview, painted in that font where the printer prints them.
    static func draw(_ page: ComposedPage, setup: PageSetup, deviceText: DeviceTextDrawing = .none) -> RenderedPage {
        let width = setup.media.widthInDots
        var drawn = page, lines: [DeviceTextLine] = [], kept: Set<Int> = []
        var ink: [UInt8] = []
        while true {
            if let options = deviceText.options {
                let planner = DeviceTextPlanner(options: options, dpi: setup.content.resolution.horizontal)
                (drawn, lines) = planner.split(page, setup: setup, keepingDrawn: kept)
            }
            ink = InkCanvas.ink(width: width, height: page.heightInDots, printable: 0..<width) { cr in
                drawn.draw(with: cr, setup: setup)
            }
            // A glyph drawn beside a printer line can reach past its own rows
            // into the line's; the paper under a printer line carries no
            // drawing, so such a line is drawn too, and the page again.
            let rows = 0..<page.heightInDots
            let inked = lines.filter { line in
                (line.top..<(line.top + line.height)).clamped(to: rows).contains { row in
                    ink[(row * width)..<((row + 1) * width)].contains { $0 >= 128 }
                }
            }
            if inked.isEmpty { break }
            kept.formUnion(inked.map(\.top))
        }
        if case .painted(let options) = deviceText, !lines.isEmpty {
            ink = InkCanvas.ink(width: width, height: page.heightInDots, printable: 0..<width) { cr in
                drawn.draw(with: cr, setup: setup)
                DeviceTextPainter.paint(lines, font: options.font, with: cr)
            }
        }
        var rendered = RenderedPage(length: page.length, width: width, height: page.heightInDots,
                                    resolution: setup.media.resolution, ink: ink, contentHeight: page.contentRows)
        if case .leftToPrinter = deviceText { rendered.deviceText = lines }
        return rendered
    }

    /// Lays the document out and cuts it into pages.
    func compose(_ document: LayoutDocument) throws(DocumentError) -> Composition {
        let setup: PageSetup
        do { setup = try PageSetup(request: document.page, media: media) } catch { throw .page(error) }
        let content = setup.content
        var renderer = LayoutRenderer(geometry: content, assets: assets)
        renderer.keepsImagesGray = keepsImagesGray
        let text = TextContext(dpi: content.resolution.horizontal)   // one for every pass of this document
        let pitch = content.resolution.vertical
        func length(_ dots: Int) -> Length { Length(hundredthsOfMillimetre: (dots * 2540 + pitch - 1) / pitch) }

        // Headers and footers are measured once with wide page numbers; each
        // page draws its own numbers into that room.
        let headerRoom = renderer.plan(PageNumbers.fill(document.header, page: 888, of: 888), text: text)
        let footerRoom = renderer.plan(PageNumbers.fill(document.footer, page: 888, of: 888), text: text)
        var planning = content
        planning.margins.top = planning.margins.top + length(headerRoom.height)
        planning.margins.bottom = planning.margins.bottom + length(footerRoom.height)

        var problems = headerRoom.problems + footerRoom.problems
        var slices: [(plan: DrawPlan, spans: [Range<Int>], piece: CutPiece)] = []
        // Bounded before a segment is laid out or a piece drawn: a section repeating a <cut/> over
        // a long list would otherwise lay out and draw every piece.
        let segments = Self.segments(document.body)
        guard segments.count <= RenderLimits.maximumPiecesPerJob else {
            throw .cut(.tooManyPieces(needed: segments.count, limit: RenderLimits.maximumPiecesPerJob))
        }
        var paper = Length.zero
        for segment in segments {
            let plan = renderer.plan(segment, text: text)
            let spans = plan.operations.map(\.rows)
            problems += plan.problems
            let cut: CutPlan
            do {
                cut = try CutPlanner.plan(contentHeight: length(plan.height), policy: setup.policy,
                                          geometry: planning, breaks: plan.breaks.map(length))
            } catch { throw .cut(error) }
            slices += cut.pieces.map { (plan, spans, $0) }
            guard slices.count <= RenderLimits.maximumPiecesPerJob else {
                throw .cut(.tooManyPieces(needed: slices.count, limit: RenderLimits.maximumPiecesPerJob))
            }
            paper = cut.pieces.reduce(paper) { $0 + (setup.fixedMediaLength ?? $1.length) }
            guard paper <= RenderLimits.maximumJobLength else {
                throw .tooLong(atLeast: paper, limit: RenderLimits.maximumJobLength)
            }
        }

        let followsContent = if case .afterContent = setup.policy { true } else { false }
        let pages = slices.enumerated().map { number, slice -> ComposedPage in
            let (plan, spans, piece) = slice
            let rows = piece.content.lowerBound.dots(at: pitch)..<min(plan.height, piece.content.upperBound.dots(at: pitch))
            let printable = content.printableDots(pageLength: piece.length)
            let bodyTop = printable.y + headerRoom.height
            // Only the steps that reach into this piece: drawing every step of a
            // long document for every piece, clipped, made its cost grow with
            // pieces x steps (a 20,000-line report: 27 pieces, 14 s).
            let operations = zip(plan.operations, spans).filter { $0.1.overlaps(rows) }.map(\.0)
            var placements = [ComposedPage.Placement(operations: operations, rows: rows, y: bodyTop)]
            if !document.header.isEmpty {
                let header = renderer.plan(PageNumbers.fill(document.header, page: number + 1, of: slices.count), text: text)
                placements.append(.init(operations: header.operations, rows: 0..<header.height, y: printable.y))
            }
            if !document.footer.isEmpty {
                let footer = renderer.plan(PageNumbers.fill(document.footer, page: number + 1, of: slices.count), text: text)
                // On a roll cut after the content the footer follows it; on a
                // page of fixed length it sits at the bottom.
                let top = followsContent ? bodyTop + rows.count : printable.y + printable.height - footerRoom.height
                placements.append(.init(operations: footer.operations, rows: 0..<footer.height, y: top))
            }
            let mediaLength = setup.fixedMediaLength ?? piece.length
            let height = setup.landscape ? mediaLength.dots(at: setup.media.resolution.vertical) : piece.heightInDots
            return ComposedPage(length: mediaLength, heightInDots: height, contentRows: rows.count, placements: placements)
        }
        return Composition(setup: setup, pages: pages, problems: problems)
    }

    /// The body split at its top-level `<cut/>`s: each part starts a new
    /// piece of paper. Empty parts (a cut at the very end) print nothing.
    static func segments(_ body: [LayoutNode]) -> [[LayoutNode]] {
        var parts: [[LayoutNode]] = [[]]
        for node in body {
            if case .cut = node { parts.append([]) } else { parts[parts.count - 1].append(node) }
        }
        let filled = parts.filter { !$0.isEmpty }
        return filled.isEmpty ? [[]] : filled
    }
}

/// Why a template could not be laid out for a printer.
public enum DocumentError: Error, Hashable, Sendable, CustomStringConvertible {
    case page(PageSetupError)
    case cut(CutError)
    /// The job would use at least `atLeast` of paper, more than `RenderLimits.maximumJobLength`.
    case tooLong(atLeast: Length, limit: Length)

    public var description: String {
        switch self {
        case .page(let error): error.description
        case .cut(let error): error.description
        case .tooLong(let length, let limit):
            "The content would use at least \(Self.metres(length)) of paper, more than the \(Self.metres(limit)) a job may use. "
                + "Nothing was drawn. Shorten the content or split it into several jobs."
        }
    }

    private static func metres(_ length: Length) -> String {
        let tenths = (length.hundredthsOfMillimetre + 5_000) / 10_000
        return tenths % 10 == 0 ? "\(tenths / 10) m" : "\(tenths / 10).\(tenths % 10) m"
    }
}
