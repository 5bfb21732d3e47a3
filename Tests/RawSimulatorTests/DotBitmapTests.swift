import Foundation
import Simulator
import Testing

/// The bitmap a simulator records, and its PNG export, checked by an
/// independent reader (Python's zlib and binascii).
@Suite("Dot bitmaps and PNG", .timeLimit(.minutes(1)))
struct DotBitmapTests {
    @Test("Rows drawn as text read back as text; dots outside are paper")
    func textRows() {
        let bitmap = DotBitmap(width: 10, rows: ["#.#", "", "..........#"])
        #expect(bitmap.height == 3)
        #expect(bitmap.rowStrings == ["#.#.......", "..........", ".........."])
        #expect(bitmap[0, 0] && !bitmap[1, 0] && bitmap[2, 0])
        #expect(!bitmap[10, 2] && !bitmap[-1, 0])
        #expect(bitmap.inkDots == 2)
        #expect(bitmap.packed == [0xA0, 0x00, 0x00, 0x00, 0x00, 0x00])
    }

    @Test("A piece's PNG has valid chunk CRCs and decodes (zlib) to the same dots, black ink on white")
    func pngRoundTrip() throws {
        let bitmap = DotBitmap(width: 19, rows: SampleImage.rows + ["#.................#"])
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("rawsim-\(UUID().uuidString).png").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try bitmap.writePNG(to: path)

        let result = try Subprocess.run("python3", ["-c", Self.reader, path], limit: .seconds(30))
        #expect(result.status == 0, "\(result.errors)")
        let lines = result.output.split(separator: "\n").map(String.init)
        #expect(lines.first == "19x5 depth 1 gray")
        #expect(Array(lines.dropFirst()) == bitmap.rowStrings)
    }

    @Test("An empty piece still makes a valid one-row PNG")
    func emptyPNG() throws {
        let data = DotBitmap(width: 8).pngData()
        #expect(Array(data.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        // IHDR's width and height, big-endian, after the length and type.
        #expect(Array(data[16..<24]) == [0, 0, 0, 8, 0, 0, 0, 1])
    }

    /// Parses the PNG with Python's standard library: checks each chunk's CRC,
    /// inflates IDAT, prints "WxH depth N gray", then each row as # and .
    static let reader = #"""
    import sys, struct, zlib, binascii
    data = open(sys.argv[1], "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "signature"
    pos, idat = 8, b""
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        crc, = struct.unpack(">I", data[pos + 8 + length:pos + 12 + length])
        assert binascii.crc32(kind + body) & 0xffffffff == crc, "CRC of " + kind.decode()
        if kind == b"IHDR": width, height, depth, color = struct.unpack(">IIBB", body[:10])
        if kind == b"IDAT": idat += body
        pos += 12 + length
    print("%dx%d depth %d %s" % (width, height, depth, "gray" if color == 0 else color))
    raw, stride = zlib.decompress(idat), (width + 7) // 8 + 1
    for y in range(height):
        line = raw[y * stride:(y + 1) * stride]
        assert line[0] == 0, "filter"
        print("".join("." if line[1 + x // 8] & (0x80 >> (x % 8)) else "#" for x in range(width)))
    """#
}
