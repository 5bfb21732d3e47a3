public import Foundation
public import PrintModel

/// A template drawn for one printer: one page per piece of paper.
public struct RenderedDocument: Sendable, Hashable {
    /// The media and the cut policy the pages were made for.
    public var setup: PageSetup
    public var pages: [RenderedPage]
    /// Everything not drawn as written; see `RenderProblem.isError`.
    public var problems: [RenderProblem]

    /// True when a problem makes the pages wrong (a barcode or image left out).
    public var hasErrors: Bool { problems.contains(where: \.isError) }

    /// The cut lengths, page by page: what the job's media-col y-dimension says.
    public var cutLengths: [Length] { pages.map(\.length) }

    /// The raster header options for each page: on a roll, cut after every
    /// page at its exact length; on a sheet, the sheet's name and no cut.
    public func rasterOptions(for page: RenderedPage) -> RasterPageOptions {
        Self.rasterOptions(length: page.length, media: setup.media)
    }

    /// The raster header options of a page `length` long on `media`.
    static func rasterOptions(length: Length, media: PageGeometry) -> RasterPageOptions {
        let size = RasterPageOptions.MediaSize(width: media.mediaWidth, height: length)
        return media.isRoll
            ? RasterPageOptions(cut: .afterPage, mediaSize: size, mediaSource: media.mediaSource)
            : RasterPageOptions(cut: .none, mediaSize: size, pageSizeName: media.mediaName, mediaSource: media.mediaSource)
    }

    /// The whole document as PWG or Apple raster, `pixelFormat` dots.
    public func rasterDocument(_ format: RasterWriter.Format,
                               pixelFormat: RasterPage.PixelFormat = .black1) throws -> Data {
        try RasterWriter(format: format).encode(rasterPages(pixelFormat))
    }

    /// The pages with their headers, for `RasterWriter`.
    public func rasterPages(_ pixelFormat: RasterPage.PixelFormat = .black1) -> [RasterWriter.Page] {
        pages.map { RasterWriter.Page($0.rasterPage(format: pixelFormat), options: rasterOptions(for: $0)) }
    }

    /// One PNG of every page, top to bottom, with a dashed line where the
    /// paper is cut between pieces.
    public func writePNGPreview(toFile path: String) throws {
        guard let first = pages.first else { throw RasterError.unsupported("nothing to preview") }
        let gap = PNGPreviewSheet.gap
        let height = pages.reduce(0) { $0 + $1.height } + gap * (pages.count - 1)
        var sheet = RasterPage(blankWidth: first.width, height: height, resolution: first.resolution, format: .black1)
        var top = 0
        for (index, page) in pages.enumerated() {
            let raster = page.rasterPage(format: .black1)
            for y in 0..<page.height {
                for x in 0..<min(page.width, first.width) where raster.ink(x: x, y: y) != 0 {
                    sheet.setInk(255, x: x, y: top + y)
                }
            }
            top += page.height
            if index < pages.count - 1 {
                for x in stride(from: 0, to: first.width, by: 8) {
                    for dx in 0..<min(4, first.width - x) { sheet.setInk(255, x: x + dx, y: top + gap / 2) }
                }
                top += gap
            }
        }
        try PNGPreview.write(sheet, toFile: path)
    }
}

/// The one image a PNG preview is: every piece top to bottom.
public enum PNGPreviewSheet {
    /// Rows between two pieces, where a dashed line marks the cut.
    public static let gap = 12
}

/// One piece of paper, drawn: ink over the whole media width, as long as the cut.
public struct RenderedPage: Sendable, Hashable {
    /// The page's length along the paper: the cut length on a roll.
    public var length: Length
    /// Media width in dots.
    public var width: Int
    /// Page length in dots.
    public var height: Int
    public var resolution: Resolution
    /// `width * height` bytes, 0 = paper, 255 = full ink.
    public var ink: [UInt8]
    /// Rows of body content on this page (without header and footer).
    public var contentHeight: Int
    /// The lines left to the printer's own font (`DeviceTextDrawing.leftToPrinter`),
    /// top to bottom, in page rows and media columns; their rows are blank in `ink`.
    public var deviceText: [DeviceTextLine] = []

    /// The page as the printer takes it, thresholded at half ink for one bit.
    public func rasterPage(format: RasterPage.PixelFormat = .black1) -> RasterPage {
        RasterPage(ink: ink, width: width, height: height, resolution: resolution,
                   format: format, binarization: .threshold(level: 128))
    }

    /// Ink at one dot (0...255).
    public func ink(x: Int, y: Int) -> UInt8 { ink[y * width + x] }
}

/// A template drawn straight into a raster document (`DocumentRenderer.renderRaster`):
/// the encoded bytes and what the job records, with no page kept in memory.
public struct RenderedRaster: Sendable {
    /// The PWG or Apple raster document.
    public var data: Data
    /// Each piece's length: the cut lengths, in order.
    public var cutLengths: [Length]
    /// Dots across the media.
    public var widthDots: Int
    public var problems: [RenderProblem]

    /// True when a problem makes the pages wrong (a barcode or image left out).
    public var hasErrors: Bool { problems.contains(where: \.isError) }
}

/// What a drawing does with the text a printer could print in its own font.
public enum DeviceTextDrawing: Sendable {
    /// Everything drawn (raster delivery, PDF, IPP printers).
    case none
    /// Lines the printer's font can show are left out of the ink and listed
    /// in `RenderedPage.deviceText`, for the printer to print as text.
    case leftToPrinter(DeviceTextOptions)
    /// The same lines painted in a stand-in for the printer's font, where it
    /// prints them: the preview of a `native` role.
    case painted(DeviceTextOptions)

    /// The same choice for a preview: what is left to the printer, painted in its font.
    public var forPreview: DeviceTextDrawing {
        if case .leftToPrinter(let options) = self { .painted(options) } else { self }
    }

    var options: DeviceTextOptions? {
        switch self {
        case .none: nil
        case .leftToPrinter(let options), .painted(let options): options
        }
    }
}
