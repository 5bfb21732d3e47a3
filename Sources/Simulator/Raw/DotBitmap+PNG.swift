import Foundation

// A PNG writer small enough to read in one sitting: the Simulator module
// links no image library (Rendering's PNG previews go through cairo, which
// this module must not import). The image is one-bit grayscale, and the
// pixel data is zlib-wrapped in deflate's "stored" blocks (no compression),
// which every PNG reader accepts. Formats: PNG (RFC 2083 / ISO 15948), zlib
// (RFC 1950), deflate stored blocks (RFC 1951 section 3.2.4).

extension DotBitmap {
    /// The bitmap as a PNG file's bytes: black ink on white paper, one pixel
    /// per dot. A bitmap without rows becomes one white row, since a PNG
    /// needs at least one.
    public func pngData() -> [UInt8] {
        let rows = max(height, 1)
        let columns = max(width, 1)
        let rowBytes = (columns + 7) / 8
        // Each scanline: filter type 0 (none), then the row with 1 = white.
        var scanlines: [UInt8] = []
        scanlines.reserveCapacity(rows * (rowBytes + 1))
        for y in 0..<rows {
            scanlines.append(0)
            for index in 0..<rowBytes {
                let ink = y < height && index < bytesPerRow ? packed[y * bytesPerRow + index] : 0
                scanlines.append(~ink)
            }
        }
        var header: [UInt8] = []
        header.appendBigEndian(UInt32(columns))
        header.appendBigEndian(UInt32(rows))
        header += [1, 0, 0, 0, 0]  // bit depth 1, grayscale, deflate, no filter method, no interlace

        var file: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        file.appendChunk("IHDR", header)
        file.appendChunk("IDAT", PNGEncoding.storedZlib(scanlines))
        file.appendChunk("IEND", [])
        return file
    }

    /// Writes `pngData()` to `path`, replacing any file there.
    public func writePNG(to path: String) throws {
        try Data(pngData()).write(to: URL(fileURLWithPath: path), options: .atomic)
    }
}

/// A valid PNG whose header declares `width` x `height` RGBA pixels over 4 KB
/// of zeros: a decoder that trusts the header allocates width x height x 4
/// bytes before it reads a pixel. The hostile-input bench drops it.
public func pngDeclaring(width: UInt32, height: UInt32) -> [UInt8] {
    var header: [UInt8] = []
    header.appendBigEndian(width)
    header.appendBigEndian(height)
    header += [8, 6, 0, 0, 0]  // 8 bits, RGBA, deflate, no filter method, no interlace
    var file: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    file.appendChunk("IHDR", header)
    file.appendChunk("IDAT", PNGEncoding.storedZlib([UInt8](repeating: 0, count: 4096)))
    file.appendChunk("IEND", [])
    return file
}

enum PNGEncoding {
    /// `data` as a zlib stream of stored deflate blocks (at most 65535 bytes each).
    static func storedZlib(_ data: [UInt8]) -> [UInt8] {
        var stream: [UInt8] = [0x78, 0x01]  // deflate, 32 KiB window; FCHECK makes 0x7801 a multiple of 31
        var offset = 0
        repeat {
            let count = min(65_535, data.count - offset)
            let last = offset + count == data.count
            stream.append(last ? 1 : 0)  // BFINAL, BTYPE 00
            stream += [UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8((~count >> 8) & 0xFF)]
            stream += data[offset..<offset + count]
            offset += count
        } while offset < data.count
        stream.appendBigEndian(adler32(data))
        return stream
    }

    static func adler32(_ data: [UInt8]) -> UInt32 {
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in data {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        return b << 16 | a
    }

    /// CRC-32 as PNG chunks use it (reflected polynomial 0xEDB88320).
    static func crc32<Bytes: Sequence<UInt8>>(_ data: Bytes) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in data {
            crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8)
        }
        return crc ^ 0xFFFF_FFFF
    }

    private static let table: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 != 0 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
        return value
    }
}

extension [UInt8] {
    mutating func appendBigEndian(_ value: UInt32) {
        append(contentsOf: [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)])
    }

    /// A PNG chunk: length, type, data, CRC of type and data.
    mutating func appendChunk(_ type: String, _ data: [UInt8]) {
        appendBigEndian(UInt32(data.count))
        let typed = Array(type.utf8) + data
        append(contentsOf: typed)
        appendBigEndian(PNGEncoding.crc32(typed))
    }
}
