import CPangoCairo
public import Foundation
public import PrintModel
public import Templates

/// A document drawn as PDF, with the page lengths it was cut into.
public struct RenderedPDF: Sendable {
    public var data: Data
    /// Each page's length: its cut length on a roll.
    public var pageLengths: [Length]
    public var problems: [RenderProblem]
}

extension DocumentRenderer {
    /// The document as PDF, drawn through cairo's PDF surface from the same
    /// composition as the raster: text stays text, barcodes and images are
    /// embedded at the printer's dots, and each page is exactly its cut length.
    public func renderPDF(_ document: LayoutDocument, title: String? = nil) throws(DocumentError) -> RenderedPDF {
        var grayRenderer = self
        grayRenderer.keepsImagesGray = true   // a PDF may go to a grey or colour printer
        let composition = try grayRenderer.compose(document)
        let setup = composition.setup
        let sink = PDFSink()
        let context = Unmanaged.passRetained(sink)
        defer { context.release() }
        let points = { (length: Length) in Double(length.hundredthsOfMillimetre) * 72 / 2540 }
        let first = composition.pages.first?.length ?? setup.media.longestPage
        let surface = cairo_pdf_surface_create_for_stream({ closure, data, length in
            guard let closure, let data else { return CAIRO_STATUS_WRITE_ERROR }
            Unmanaged<PDFSink>.fromOpaque(closure).takeUnretainedValue()
                .bytes.append(contentsOf: UnsafeBufferPointer(start: data, count: Int(length)))
            return CAIRO_STATUS_SUCCESS
        }, context.toOpaque(), points(setup.media.mediaWidth), points(first))
        cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_CREATOR, "KioskPrint")
        if let title { cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_TITLE, title) }
        // Inverse text clears ink, which PDF cannot say: cairo draws such
        // spots as images, at the printer's resolution.
        cairo_surface_set_fallback_resolution(surface, Double(setup.media.resolution.horizontal),
                                              Double(setup.media.resolution.vertical))
        let cr = cairo_create(surface)
        for page in composition.pages {
            cairo_pdf_surface_set_size(surface, points(setup.media.mediaWidth), points(page.length))
            cairo_save(cr)
            cairo_scale(cr, 72 / Double(setup.media.resolution.horizontal), 72 / Double(setup.media.resolution.vertical))
            page.draw(with: cr!, setup: setup)
            cairo_restore(cr)
            cairo_show_page(cr)
        }
        cairo_destroy(cr)
        cairo_surface_finish(surface)
        cairo_surface_destroy(surface)
        return RenderedPDF(data: Data(sink.bytes), pageLengths: composition.pages.map(\.length),
                           problems: composition.problems)
    }
}

// Collects what cairo writes; touched only on this thread, during one call.
private final class PDFSink {
    var bytes: [UInt8] = []
}
