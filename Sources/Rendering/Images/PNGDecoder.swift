import CPangoCairo

/// PNG to luminance through cairo's PNG reader (libpng underneath).
///
/// cairo hands back premultiplied ARGB32 for most PNGs, but RGB24, or a
/// float format for 16-bit files in newer cairos; rather than handle each,
/// the decoded surface is painted over white onto an RGB24 surface. That
/// one step is also the compositing over paper: a transparent pixel prints
/// as paper, a half-transparent black one as half grey.
package enum PNGDecoder {
    package static func decode(_ data: [UInt8], name: String) throws(ImageError) -> GrayImage {
        if let size = ImageFormat.pngSize(data) {
            try GrayImage.checkDeclaredSize(width: size.width, height: size.height,
                                            bytesPerPixel: bytesPerPixel(bitDepth: ImageFormat.pngBitDepth(data)), name: name)
        }

        var source = StreamSource(data: data)
        let decoded = withUnsafeMutablePointer(to: &source) { pointer in
            cairo_image_surface_create_from_png_stream({ closure, target, length in
                let source = closure!.assumingMemoryBound(to: StreamSource.self)
                return source.pointee.read(into: target!, count: Int(length))
            }, pointer)
        }
        defer { cairo_surface_destroy(decoded) }
        let status = cairo_surface_status(decoded)
        guard status == CAIRO_STATUS_SUCCESS else {
            if source.ranOut {
                throw .truncated(name: name, format: "PNG",
                                 detail: "\(data.count) bytes, and the decoder wanted more")
            }
            // cairo reports every libpng error (bad checksum, broken
            // compressed data, invalid header) as "out of memory". The size
            // is already known to be sane, so only call it memory when a
            // surface that size cannot be had.
            if status == CAIRO_STATUS_NO_MEMORY {
                let size = ImageFormat.pngSize(data) ?? (0, 0)
                if !canAllocate(width: size.width, height: size.height) {
                    throw .outOfMemory(name: name, width: size.width, height: size.height)
                }
                throw .damaged(name: name, format: "PNG",
                               reason: "libpng refused the data: a bad checksum, broken compressed pixels "
                                   + "or an invalid header")
            }
            throw .damaged(name: name, format: "PNG", reason: String(cString: cairo_status_to_string(status)))
        }
        return try luminanceOverWhite(decoded, name: name)
    }

    /// What decoding takes a pixel: cairo's surface (4 bytes, or a float
    /// format of up to 16 bytes for 16-bit files in newer cairos), the RGB24
    /// surface over white (4) and the grey (1).
    static func bytesPerPixel(bitDepth: Int?) -> Int {
        (bitDepth == 16 ? 16 : 4) + 4 + 1
    }

    private static func canAllocate(width: Int, height: Int) -> Bool {
        let probe = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height))
        defer { cairo_surface_destroy(probe) }
        return cairo_surface_status(probe) == CAIRO_STATUS_SUCCESS
    }

    private static func luminanceOverWhite(_ decoded: OpaquePointer?, name: String) throws(ImageError) -> GrayImage {
        let width = Int(cairo_image_surface_get_width(decoded))
        let height = Int(cairo_image_surface_get_height(decoded))
        let paper = cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32(width), Int32(height))
        defer { cairo_surface_destroy(paper) }
        guard cairo_surface_status(paper) == CAIRO_STATUS_SUCCESS else {
            throw .outOfMemory(name: name, width: width, height: height)
        }
        let cr = cairo_create(paper)
        cairo_set_source_rgb(cr, 1, 1, 1)
        cairo_paint(cr)
        cairo_set_source_surface(cr, decoded, 0, 0)
        cairo_paint(cr)
        cairo_destroy(cr)
        cairo_surface_flush(paper)

        guard let pixels = cairo_image_surface_get_data(paper) else {
            throw .outOfMemory(name: name, width: width, height: height)
        }
        let stride = Int(cairo_image_surface_get_stride(paper))
        var luminance = [UInt8](repeating: 255, count: width * height)
        luminance.withUnsafeMutableBufferPointer { out in
            pixels.withMemoryRebound(to: UInt32.self, capacity: stride / 4 * height) { words in
                for y in 0..<height {
                    let row = words + y * (stride / 4)
                    for x in 0..<width {
                        // xRGB in a native-endian word. Rec. 601 weights, as
                        // libjpeg uses for JPEG's grey, so a logo looks the
                        // same whichever format it was saved in.
                        let pixel = row[x]
                        let r = (pixel >> 16) & 0xFF, g = (pixel >> 8) & 0xFF, b = pixel & 0xFF
                        out[y * width + x] = UInt8((77 * r + 150 * g + 29 * b + 128) >> 8)
                    }
                }
            }
        }
        return GrayImage(width: width, height: height, luminance: luminance)
    }
}

/// cairo pulls the PNG through a callback; this is the cursor it pulls from.
private struct StreamSource {
    let data: [UInt8]
    var offset = 0
    /// cairo asked for bytes past the end: the file is cut short.
    var ranOut = false

    init(data: [UInt8]) { self.data = data }

    mutating func read(into target: UnsafeMutablePointer<UInt8>, count: Int) -> cairo_status_t {
        guard count <= data.count - offset else {
            ranOut = true
            return CAIRO_STATUS_READ_ERROR
        }
        data.withUnsafeBufferPointer { bytes in
            target.update(from: bytes.baseAddress! + offset, count: count)
        }
        offset += count
        return CAIRO_STATUS_SUCCESS
    }
}
