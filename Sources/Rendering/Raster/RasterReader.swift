public import Foundation
import CCups
import Glibc

/// Reads PWG raster or URF back with libcups (`cupsRasterReadHeader2`,
/// `cupsRasterReadPixels`): to check what the writer made, in tests and
/// on the command line. Blocking file I/O, like the writer.
public enum RasterReader {
    /// One page as the file holds it: the header and `height` rows of
    /// `bytesPerLine` bytes.
    public struct Page: Hashable, Sendable {
        public var header: RasterHeader
        public var pixels: [UInt8]

        /// The page as a `RasterPage`, when its layout is one of ours.
        public var raster: RasterPage? {
            guard let format = header.pixelFormat else { return nil }
            return RasterPage(width: header.width, height: header.height, resolution: header.resolution,
                              format: format, pixels: pixels)
        }
    }

    public static func read(path: String) throws -> [Page] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            throw RasterError.cannotOpen(path: path, reason: String(cString: strerror(errno)))
        }
        defer { close(fd) }
        guard let stream = cupsRasterOpen(fd, CUPS_RASTER_READ) else {
            throw RasterError.readFailed(RasterWriter.lastError())
        }
        return try readPages(stream)
    }

    /// Reads pages from memory. `admit` sees each page's header before its
    /// pixels are allocated and throws to refuse it (a document from a
    /// client, whose header may claim any size).
    public static func read(data: Data, admit: (RasterHeader) throws -> Void = { _ in }) throws -> [Page] {
        let source = ByteSource(Array(data))
        let context = Unmanaged.passRetained(source)
        defer { context.release() }
        guard let stream = cupsRasterOpenIO({ ctx, buffer, length in
            guard let ctx, let buffer else { return -1 }
            let source = Unmanaged<ByteSource>.fromOpaque(ctx).takeUnretainedValue()
            let count = min(length, source.bytes.count - source.offset)
            for i in 0..<count { buffer[i] = source.bytes[source.offset + i] }
            source.offset += count
            return count
        }, context.toOpaque(), CUPS_RASTER_READ) else {
            throw RasterError.readFailed(RasterWriter.lastError())
        }
        return try readPages(stream, admit: admit)
    }

    private static func readPages(_ stream: OpaquePointer, admit: (RasterHeader) throws -> Void = { _ in }) throws -> [Page] {
        defer { cupsRasterClose(stream) }
        var pages: [Page] = []
        var header = cups_page_header2_t()
        // A false return at a page boundary is the normal end of the stream.
        while cupsRasterReadHeader2(stream, &header) != 0 {
            try admit(RasterHeader(header))
            let length = Int(header.cupsBytesPerLine) * Int(header.cupsHeight)
            var pixels = [UInt8](repeating: 0, count: length)
            if length > 0 {
                let read = pixels.withUnsafeMutableBufferPointer {
                    cupsRasterReadPixels(stream, $0.baseAddress, UInt32(length))
                }
                guard read == UInt32(length) else {
                    throw RasterError.readFailed("page \(pages.count + 1) ends early: \(RasterWriter.lastError())")
                }
            }
            pages.append(Page(header: RasterHeader(header), pixels: pixels))
        }
        guard !pages.isEmpty else { throw RasterError.readFailed(RasterWriter.lastError()) }
        return pages
    }
}

// Feeds libcups from memory; used on one thread during one read call.
private final class ByteSource {
    let bytes: [UInt8]
    var offset = 0
    init(_ bytes: [UInt8]) { self.bytes = bytes }
}
