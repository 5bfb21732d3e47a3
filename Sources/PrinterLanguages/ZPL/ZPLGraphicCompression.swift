/// ZPL II's ASCII compression of `^GFA` / `~DG` graphic data.
///
/// Source: Zebra, "ZPL II Programming Guide", Advanced Techniques,
/// "Alternative Data Compression Scheme for ~DG and ~DB Commands"
/// (https://docs.zebra.com/us/en/printers/software/zpl-pg/advanced-techniques/alternative-data-compression-scheme-for-~dg-and-~db-commands.html),
/// and the `^GF` command page:
///
/// - each image byte is two hex digits, most significant nibble first;
/// - `G` to `Y` before a hex digit repeat it 1 to 19 times, `g` to `z` 20 to
///   400 times (in steps of 20); several counts before one digit add up
///   (`vMB` is 327 `B`s);
/// - `,` fills the rest of the row with 0s (paper), `!` with 1s (ink);
/// - `:` repeats the previous row whole.
///
/// The encoder uses `,` and `!` only at a byte boundary, which every reading
/// of the reference agrees on ("if the hex string ends in an odd number of
/// zeros, one zero and a comma are required"), and never `:` for the first row.
public enum ZPLGraphicCompression {
    /// The compressed hex data for `rows`, `bytesPerRow` bytes each.
    public static func encode(_ rows: [UInt8], bytesPerRow: Int) -> String {
        precondition(bytesPerRow > 0 && rows.count % bytesPerRow == 0, "whole rows only")
        var out: [UInt8] = []
        out.reserveCapacity(rows.count / 2)
        var previous: ArraySlice<UInt8>?
        for start in stride(from: 0, to: rows.count, by: bytesPerRow) {
            let row = rows[start..<(start + bytesPerRow)]
            if let previous, previous.elementsEqual(row) {
                out.append(UInt8(ascii: ":"))
            } else {
                encodeRow(row, into: &out)
            }
            previous = row
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    private static func encodeRow(_ row: ArraySlice<UInt8>, into out: inout [UInt8]) {
        // A tail of whole 00 or FF bytes becomes one `,` or `!`.
        var end = row.endIndex
        var filler: UInt8?
        if let last = row.last, last == 0x00 || last == 0xFF {
            while end > row.startIndex && row[end - 1] == last { end -= 1 }
            filler = last == 0x00 ? UInt8(ascii: ",") : UInt8(ascii: "!")
        }
        var nibbles: [UInt8] = []
        nibbles.reserveCapacity((end - row.startIndex) * 2)
        for byte in row[row.startIndex..<end] {
            nibbles.append(hexDigits[Int(byte >> 4)])
            nibbles.append(hexDigits[Int(byte & 0x0F)])
        }
        var index = 0
        while index < nibbles.count {
            var run = 1
            while index + run < nibbles.count && nibbles[index + run] == nibbles[index] { run += 1 }
            appendRepeat(count: run, of: nibbles[index], into: &out)
            index += run
        }
        if let filler { out.append(filler) }
    }

    /// `count` copies of the hex digit `digit`: the digit alone for one,
    /// else as many `z` (400) as fit, one of `g`...`y` for the twenties and
    /// one of `G`...`Y` for the rest, then the digit.
    static func appendRepeat(count: Int, of digit: UInt8, into out: inout [UInt8]) {
        guard count > 1 else { out.append(digit); return }
        var left = count
        while left >= 400 { out.append(UInt8(ascii: "z")); left -= 400 }
        if left >= 20 { out.append(UInt8(ascii: "g") + UInt8(left / 20 - 1)); left %= 20 }
        if left > 0 { out.append(UInt8(ascii: "G") + UInt8(left - 1)) }
        out.append(digit)
    }
}
