public import Foundation
public import PrintModel

/// A PWG raster or Apple raster (URF) document a client sent, read into
/// grey pages to be drawn again for the printer that prints it: the
/// client drew them for the media and resolution a role printer offered.
public enum RasterDocument {
    /// One page: its pixels (0 black, 255 white) and the resolution it was drawn at.
    public struct Page: Sendable, Hashable {
        public var image: GrayImage
        public var resolution: Resolution
        /// Drawn in one bit a dot (black_1): its edges are exact, so it is thresholded rather than dithered.
        public var isBilevel: Bool

        public init(image: GrayImage, resolution: Resolution, isBilevel: Bool) {
            self.image = image; self.resolution = resolution; self.isBilevel = isBilevel
        }
    }

    /// Most pages a document may have: a kiosk prints receipts and tickets.
    public static let maximumPages = 100

    /// `RaS2` (PWG 5102.4) or `UNIRAST` (Apple raster).
    public static func isRaster(_ data: Data) -> Bool {
        data.starts(with: Data("RaS2".utf8)) || data.starts(with: Data("UNIRAST\u{0}".utf8))
    }

    /// The document's pages, each checked against the image limits from its
    /// header before its pixels are read.
    public static func pages(_ data: Data, name: String) throws(ImageError) -> [Page] {
        let read: [RasterReader.Page]
        do {
            var count = 0, total = 0
            read = try RasterReader.read(data: data) { header in
                count += 1
                guard count <= maximumPages else {
                    throw ImageError.damaged(name: name, format: "raster", reason: "it has more than \(maximumPages) pages")
                }
                try checkPageSize(header.width, header.height, name: name)
                // The page as read (its own layout) and as grey, a byte a pixel.
                total += header.bytesPerLine * header.height + header.width * header.height
                guard total <= RenderLimits.maximumDrawnDocumentBytes else {
                    throw ImageError.decodedTooLarge(name: name, width: header.width, height: header.height, bytes: total)
                }
                guard Self.luminance(of: header) != nil else {
                    throw ImageError.damaged(name: name, format: "raster", reason: "its pages are \(header.bitsPerPixel)-bit colour space "
                        + "\(header.colorSpace) with \(header.bytesPerLine) bytes a line for \(header.width) dots, not black_1, "
                        + "sgray_8, srgb_8 or the URF equivalents with whole lines")
                }
            }
        } catch let error as ImageError {
            throw error
        } catch {
            throw .damaged(name: name, format: "raster", reason: "\(error)")
        }
        return read.compactMap { page in
            guard let convert = luminance(of: page.header) else { return nil }
            let image = GrayImage(width: page.header.width, height: page.header.height, luminance: convert(page))
            return Page(image: image, resolution: page.header.resolution, isBilevel: page.header.bitsPerPixel == 1)
        }
    }

    /// A page a client drew may be larger than an image in a template (a
    /// whole A4 page at 600 dpi, a long receipt), within its own limits.
    static func checkPageSize(_ width: Int, _ height: Int, name: String) throws(ImageError) {
        guard width > 0, height > 0, width <= RenderLimits.maximumDrawnPageSide, height <= RenderLimits.maximumDrawnPageSide,
              width * height <= RenderLimits.maximumDrawnPagePixels else {
            throw .damaged(name: name, format: "raster", reason: "a page declares \(width) x \(height) dots, more than the "
                + "\(RenderLimits.maximumDrawnPagePixels / 1_000_000) megapixels and \(RenderLimits.maximumDrawnPageSide) dots a side "
                + "a page is read with; print it at the printer's own resolution (printer-resolution-supported)")
        }
    }

    /// How a page's pixels become luminance, for the layouts clients send; nil for others.
    private static func luminance(of header: RasterHeader) -> ((RasterReader.Page) -> [UInt8])? {
        let width = header.width, height = header.height, stride = header.bytesPerLine
        // A header is the client's word: its line must hold its width at its depth (the fuzzer sent
        // bytesPerLine smaller than that, and every later row was read past the page's end).
        guard width > 0, header.bitsPerPixel > 0, stride >= (width * header.bitsPerPixel + 7) / 8 else { return nil }
        func map(_ perPixel: @escaping ([UInt8], Int) -> UInt8) -> (RasterReader.Page) -> [UInt8] {
            { page in
                var out = [UInt8](repeating: 255, count: width * height)
                for y in 0..<height { for x in 0..<width { out[y * width + x] = perPixel(page.pixels, y * stride + x) } }
                return out
            }
        }
        switch (header.bitsPerPixel, header.colorSpace) {
        case (1, 3):  // black_1: 1 = ink, MSB first
            return { page in
                var out = [UInt8](repeating: 255, count: width * height)
                for y in 0..<height {
                    for x in 0..<width where page.pixels[y * stride + x / 8] & (0x80 >> UInt8(x % 8)) != 0 { out[y * width + x] = 0 }
                }
                return out
            }
        case (8, 18), (8, 0): return map { $0[$1] }  // sgray_8 / sw: 0 = black
        case (8, 3): return map { 255 - $0[$1] }  // K 8-bit: 255 = ink
        case (24, 1), (24, 19), (24, 20):  // RGB, sRGB, AdobeRGB: Rec. 601 luma
            return { page in
                var out = [UInt8](repeating: 255, count: width * height)
                for y in 0..<height {
                    for x in 0..<width {
                        let i = y * stride + x * 3
                        let luma = (299 * Int(page.pixels[i]) + 587 * Int(page.pixels[i + 1]) + 114 * Int(page.pixels[i + 2])) / 1000
                        out[y * width + x] = UInt8(luma)
                    }
                }
                return out
            }
        default: return nil
        }
    }
}
