
extension RenderedLayout {
    /// The layout as a printer page: `.black1` by a fixed threshold (text and
    /// rules must keep sharp edges, so no dithering), or `.sgray8` as drawn.
    /// Nil when nothing was laid out (a page has at least one row).
    public func rasterPage(format: RasterPage.PixelFormat = .black1, level: UInt8 = 128) -> RasterPage? {
        guard width > 0, height > 0 else { return nil }
        return RasterPage(ink: ink, width: width, height: height, resolution: resolution,
                          format: format, binarization: .threshold(level: level))
    }

    /// Writes a black-on-white PNG of what the printer would print (after
    /// thresholding, so the preview shows the printed dots, not the smooth
    /// antialiased ink). Throws when there is nothing to show.
    public func writePNGPreview(toFile path: String) throws {
        guard let page = rasterPage(format: .black1) else {
            throw RasterError.unsupported("the layout is empty: nothing to preview")
        }
        try PNGPreview.write(page, toFile: path)
    }
}
