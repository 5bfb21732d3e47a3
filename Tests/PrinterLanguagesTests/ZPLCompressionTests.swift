import Testing
import PrinterLanguages

/// ZPL II's ASCII compression of graphic data: fixed strings checked by hand
/// against Zebra's rules, and round trips through an independent decoder.
@Suite struct ZPLCompressionTests {
    @Test("Hand-checked rows", arguments: [
        // A row of zeros is a single comma; of ones, an exclamation mark.
        ([0x00, 0x00, 0x00], 3, ","),
        ([0xFF, 0xFF], 2, "!"),
        // A zero tail after data: the data, then the comma (at a byte boundary).
        ([0xFF, 0xFF, 0x00], 3, "JF,"),
        ([0xC0, 0x00], 2, "C0,"),
        // Repeats: J = 4, so "JF" is FFFF; runs of one are the digit alone.
        ([0x80, 0x40], 2, "8040"),
        // h = 40: twenty BB bytes are 40 B nibbles (Zebra's own example, "hB").
        ([UInt8](repeating: 0xBB, count: 20), 20, "hB"),
        // 21 zero nibbles, then a 1: g (20) + G (1).
        ([UInt8](repeating: 0x00, count: 10) + [0x01], 11, "gG01"),
        // 327 B nibbles and a 0: v (320) + M (7), Zebra's own "vMB" example.
        ([UInt8](repeating: 0xBB, count: 163) + [0xB0], 164, "vMB0"),
        // 400 is one z; 800 two.
        ([UInt8](repeating: 0x11, count: 200), 200, "z1"),
        ([UInt8](repeating: 0x11, count: 400), 400, "zz1"),
        // A one tail that is not whole bytes of FF stays as digits: 0F is "0F", then "!" for the FF bytes.
        ([0x0F, 0xFF, 0xFF], 3, "0F!"),
    ])
    func handChecked(row: [UInt8], bytesPerRow: Int, expected: String) throws {
        #expect(ZPLGraphicCompression.encode(row, bytesPerRow: bytesPerRow) == expected)
        #expect(try ZPLGraphicDecoder.decode(expected, bytesPerRow: bytesPerRow, totalBytes: row.count) == row)
    }

    @Test func aRowLikeThePreviousIsAColonButNeverTheFirst() throws {
        let rows: [UInt8] = [0x12, 0x34, 0x12, 0x34, 0x12, 0x34, 0x00, 0x00, 0x00, 0x00]
        let text = ZPLGraphicCompression.encode(rows, bytesPerRow: 2)
        #expect(text == "1234::,:")
        #expect(try ZPLGraphicDecoder.decode(text, bytesPerRow: 2, totalBytes: rows.count) == rows)
        #expect(ZPLGraphicCompression.encode([0x00, 0x00], bytesPerRow: 1) == ",:", "a first row of zeros is a comma")
    }

    @Test func randomBitmapsSurviveTheRoundTrip() throws {
        var random = SeededGenerator(state: 20_261_124)
        for _ in 0..<300 {
            let width = Int.random(in: 1...420, using: &random), height = Int.random(in: 1...24, using: &random)
            let bytesPerRow = MonoBitmap.bytesPerRow(width: width)
            var rows: [UInt8] = []
            for y in 0..<height {
                // Rows built from runs, so every rule gets used: long runs, zero and one tails, repeated rows.
                if y > 0 && Bool.random(using: &random) && Int.random(in: 0..<3, using: &random) == 0 {
                    rows += rows[((y - 1) * bytesPerRow)..<(y * bytesPerRow)]
                    continue
                }
                var row: [UInt8] = []
                while row.count < bytesPerRow {
                    let run = min(bytesPerRow - row.count, Int.random(in: 1...120, using: &random))
                    let value: UInt8 = [0x00, 0xFF, 0x0F, 0xAA, UInt8.random(in: 0...255, using: &random)].randomElement(using: &random)!
                    row += Bool.random(using: &random)
                        ? [UInt8](repeating: value, count: run)
                        : (0..<run).map { _ in UInt8.random(in: 0...255, using: &random) }
                }
                rows += row
            }
            let bitmap = try #require(MonoBitmap(width: width, height: height, rows: rows))
            let text = ZPLGraphicCompression.encode(bitmap.rows, bytesPerRow: bytesPerRow)
            let decoded = try ZPLGraphicDecoder.decode(text, bytesPerRow: bytesPerRow, totalBytes: bitmap.rows.count)
            #expect(decoded == bitmap.rows, "width \(width), height \(height): \(text.prefix(80))")
            #expect(text.count <= bitmap.rows.count * 2, "compression never makes the data longer than plain hex")
        }
    }
}
