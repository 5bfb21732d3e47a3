public import Foundation
import CCups
import Glibc

/// Writes pages as PWG raster (`image/pwg-raster`) or Apple raster
/// (`image/urf`) through libcups' raster API.
///
/// The calls are blocking file I/O: run them off the cooperative thread
/// pool (a detached task or a dedicated thread), not on an actor that
/// must stay responsive.
///
/// URF carries only 8-bit sGray or sRGB in practice, so `.black1` pages
/// are widened to `sgray_8` for it; it also cannot say where to cut or how
/// big the paper is (its page header has no such fields), and libcups'
/// URF writer needs a horizontal resolution that is a whole multiple of the
/// vertical one: this writer accepts only square resolutions for URF.
public struct RasterWriter: Hashable, Sendable {
    /// The two raster document formats IPP Everywhere printers take.
    public enum Format: Hashable, Sendable {
        case pwg
        case urf

        /// The IPP `document-format` value.
        public var mimeType: String { self == .pwg ? "image/pwg-raster" : "image/urf" }
    }

    /// A page and what its header says about it.
    public struct Page: Hashable, Sendable {
        public var raster: RasterPage
        public var options: RasterPageOptions
        public init(_ raster: RasterPage, options: RasterPageOptions = RasterPageOptions()) {
            self.raster = raster; self.options = options
        }
    }

    public var format: Format

    public init(format: Format) { self.format = format }

    /// The whole document in memory.
    public func encode(_ pages: [Page]) throws -> Data {
        try encode(pageCount: pages.count) { pages[$0] }
    }

    /// The document in memory, each page made by `page(index)` only when it
    /// is written and dropped right after: a long document's memory is one
    /// page's plus the encoded bytes, not every page at once.
    public func encode(pageCount: Int, page: (Int) throws -> Page) throws -> Data {
        let sink = ByteSink()
        let context = Unmanaged.passRetained(sink)
        defer { context.release() }
        // A non-capturing closure: libcups calls it with our sink as ctx.
        guard let stream = cupsRasterOpenIO({ ctx, buffer, length in
            guard let ctx, let buffer else { return -1 }
            let sink = Unmanaged<ByteSink>.fromOpaque(ctx).takeUnretainedValue()
            sink.bytes.append(buffer, count: length)
            return length
        }, context.toOpaque(), cupsMode) else {
            throw RasterError.writeFailed(Self.lastError())
        }
        try write(pageCount: pageCount, page: page, to: stream)
        return sink.bytes
    }

    /// Convenience: every page with the same options.
    public func encode(_ pages: [RasterPage], options: RasterPageOptions = RasterPageOptions()) throws -> Data {
        try encode(pages.map { Page($0, options: options) })
    }

    /// The whole document written to `path` (created or truncated).
    public func write(_ pages: [Page], toFile path: String) throws {
        try write(pageCount: pages.count, page: { pages[$0] }, toFile: path)
    }

    /// The document written to `path` as each page is made: neither the pages
    /// nor the encoded bytes are held in memory.
    public func write(pageCount: Int, page: (Int) throws -> Page, toFile path: String) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw RasterError.cannotOpen(path: path, reason: String(cString: strerror(errno)))
        }
        defer { close(fd) }   // cupsRasterClose does not close the descriptor
        guard let stream = cupsRasterOpen(fd, cupsMode) else {
            throw RasterError.writeFailed(Self.lastError())
        }
        try write(pageCount: pageCount, page: page, to: stream)
    }

    private var cupsMode: cups_mode_t { format == .pwg ? CUPS_RASTER_WRITE_PWG : CUPS_RASTER_WRITE_APPLE }

    // Writes every page and closes the stream, also on failure.
    private func write(pageCount: Int, page: (Int) throws -> Page, to stream: OpaquePointer) throws {
        defer { cupsRasterClose(stream) }
        guard pageCount > 0 else { throw RasterError.unsupported("a raster document needs at least one page") }
        for index in 0..<pageCount {
            let page = try page(index)
            var raster = page.raster
            if format == .urf {
                guard raster.resolution.horizontal == raster.resolution.vertical else {
                    throw RasterError.unsupported("URF needs a square resolution, not \(raster.resolution)")
                }
                raster = raster.converted(to: .sgray8)
            }
            // TotalPageCount matters most for URF: libcups writes the file's
            // page count from the first page header's cupsInteger[0].
            var header = raster.cupsHeader(options: page.options, totalPageCount: pageCount)
            guard cupsRasterWriteHeader2(stream, &header) != 0 else {
                throw RasterError.writeFailed(Self.lastError())
            }
            var pixels = raster.pixels
            let length = UInt32(pixels.count)
            let written = pixels.withUnsafeMutableBufferPointer { cupsRasterWritePixels(stream, $0.baseAddress, length) }
            guard written == length else { throw RasterError.writeFailed(Self.lastError()) }
        }
    }

    static func lastError() -> String {
        let message = cupsRasterErrorString().map { String(cString: $0) } ?? ""
        return message.isEmpty ? "libcups raster error" : message.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

// Collects what libcups writes; touched only on the writing thread, during
// one encode call.
// Data, not [UInt8]: the document is handed over without a second copy of
// a long report's tens of megabytes.
private final class ByteSink {
    var bytes = Data()
}
