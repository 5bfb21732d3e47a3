/// A PNG of raster pages as a printer received them (read back with
/// `RasterReader`): every page top to bottom on one image, with a dashed
/// line where the paper is cut between pages, like
/// `RenderedDocument.writePNGPreview` shows a document before it is sent.
public enum RasterPreview {
    /// Writes the pages to `path` (created or replaced), one PNG pixel per
    /// printer dot. Pages narrower than the widest are drawn at the left.
    public static func writePNG(_ pages: [RasterPage], toFile path: String) throws {
        guard let first = pages.first else { throw RasterError.unsupported("no pages to preview") }
        let gap = 12
        let width = pages.map(\.width).max() ?? first.width
        let height = pages.reduce(0) { $0 + $1.height } + gap * (pages.count - 1)
        // One ink byte per dot (255 = ink), stored as sgray_8 (255 = paper).
        var ink = [UInt8](repeating: 0, count: width * height)
        var top = 0
        for (index, page) in pages.enumerated() {
            let pageInk = page.inkBuffer()
            for y in 0..<page.height {
                let row = (top + y) * width
                for x in 0..<page.width { ink[row + x] = pageInk[y * page.width + x] }
            }
            top += page.height
            if index < pages.count - 1 {
                let row = (top + gap / 2) * width
                for x in stride(from: 0, to: width, by: 8) {
                    for dx in 0..<min(4, width - x) { ink[row + x + dx] = 255 }
                }
                top += gap
            }
        }
        guard let sheet = RasterPage(width: width, height: height, resolution: first.resolution, format: .sgray8,
                                     pixels: ink.map { 255 - $0 }) else {
            throw RasterError.unsupported("cannot make a \(width)x\(height) preview")
        }
        try PNGPreview.write(sheet, toFile: path)
    }
}
