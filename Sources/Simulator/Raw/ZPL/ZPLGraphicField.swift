import Foundation

/// Decodes the data of `^GFa,b,c,d,data` into a bitmap `d` bytes (8*d dots)
/// wide and `c / d` rows high (ZPL II Programming Guide, ^GF and
/// "Alternative Data Compression Scheme for ~DG and ~DB Commands").
///
/// ASCII data (`A`) is hexadecimal, two digits a byte, with the
/// compression the guide describes: `G`..`Y` repeat the next hex digit
/// 1..19 times and `g`..`z` 20, 40, .. 400 times (they add up, so `vMB` is
/// 327 B's); `,` fills the rest of the row with 0, `!` with 1 (F); `:`
/// repeats the previous row; CR, LF and spaces are ignored. Binary data (`B`)
/// is the bytes themselves. `:B64:` data is base64; `:Z64:` (zlib) and type
/// `C` are not simulated and reported as problems.
struct ZPLGraphicField {
    var bitmap: DotBitmap
    var problems: [String]

    init(type: String, fieldCount: Int, bytesPerRow: Int, data: ArraySlice<UInt8>) {
        problems = []
        guard bytesPerRow > 0, fieldCount > 0 else {
            problems.append("^GF with graphic field count \(fieldCount) and \(bytesPerRow) bytes per row: nothing to draw")
            bitmap = DotBitmap(width: 0)
            return
        }
        if fieldCount % bytesPerRow != 0 {
            problems.append("^GF graphic field count \(fieldCount) is not a multiple of \(bytesPerRow) bytes per row")
        }
        let height = fieldCount / bytesPerRow
        var bytes: [UInt8]
        switch type {
        case "B":
            bytes = Array(data)
        case "A" where data.starts(with: Array(":B64:".utf8)):
            bytes = Self.base64(data.dropFirst(5), problems: &problems)
        case "A" where data.starts(with: Array(":Z64:".utf8)):
            problems.append("^GF data in :Z64: (zlib) encoding is not simulated; the graphic is left blank")
            bytes = []
        case "A":
            bytes = Self.hexadecimal(data, bytesPerRow: bytesPerRow, problems: &problems)
        default:
            problems.append("^GF compression type \(type) is not simulated; the graphic is left blank")
            bytes = []
        }
        if !bytes.isEmpty, bytes.count != fieldCount {
            problems.append("^GF data decodes to \(bytes.count) bytes, but the graphic field count is \(fieldCount)")
        }
        bitmap = DotBitmap(width: bytesPerRow * 8, height: height, packed: bytes)
    }

    /// The ASCII hexadecimal form with Zebra's compression, row by row.
    static func hexadecimal(_ data: ArraySlice<UInt8>, bytesPerRow: Int, problems: inout [String]) -> [UInt8] {
        let rowNibbles = bytesPerRow * 2
        var rows: [[UInt8]] = []
        var row: [UInt8] = []  // nibbles of the row being filled
        var repeatCount = 0

        func finishRow() {
            var bytes = [UInt8](repeating: 0, count: bytesPerRow)
            for index in 0..<bytesPerRow { bytes[index] = row[2 * index] << 4 | row[2 * index + 1] }
            rows.append(bytes)
            row.removeAll(keepingCapacity: true)
        }
        func append(_ nibble: UInt8, times: Int) {
            for _ in 0..<times {
                row.append(nibble)
                if row.count == rowNibbles { finishRow() }
            }
        }

        for character in data {
            switch character {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                append(character - UInt8(ascii: "0"), times: max(1, repeatCount)); repeatCount = 0
            case UInt8(ascii: "A")...UInt8(ascii: "F"):
                append(character - UInt8(ascii: "A") + 10, times: max(1, repeatCount)); repeatCount = 0
            case UInt8(ascii: "a")...UInt8(ascii: "f"):
                append(character - UInt8(ascii: "a") + 10, times: max(1, repeatCount)); repeatCount = 0
            case UInt8(ascii: "G")...UInt8(ascii: "Y"):
                repeatCount += Int(character - UInt8(ascii: "G")) + 1
            case UInt8(ascii: "g")...UInt8(ascii: "z"):
                repeatCount += (Int(character - UInt8(ascii: "g")) + 1) * 20
            case UInt8(ascii: ","):
                append(0, times: rowNibbles - row.count)
            case UInt8(ascii: "!"):
                append(0xF, times: rowNibbles - row.count)
            case UInt8(ascii: ":"):
                if !row.isEmpty {
                    problems.append("^GF data has ':' in the middle of a row; the row was finished with 0")
                    append(0, times: rowNibbles - row.count)
                }
                rows.append(rows.last ?? [UInt8](repeating: 0, count: bytesPerRow))
            case 0x0D, 0x0A, 0x20, 0x09:
                continue
            default:
                problems.append("^GF data has the character \(Character(Unicode.Scalar(character))) (\(character)), "
                                + "which is neither hexadecimal nor compression; it was skipped")
            }
        }
        if repeatCount > 0 { problems.append("^GF data ends with a repeat count and no digit to repeat") }
        if !row.isEmpty {
            problems.append("^GF data ends in the middle of a row; the row was finished with 0")
            append(0, times: rowNibbles - row.count)
        }
        return rows.flatMap { $0 }
    }

    private static func base64(_ data: ArraySlice<UInt8>, problems: inout [String]) -> [UInt8] {
        // :B64:data:crc; the CRC is not checked.
        let encoded = data.prefix { $0 != UInt8(ascii: ":") }.filter { $0 != 0x0D && $0 != 0x0A }
        guard let decoded = Data(base64Encoded: Data(encoded)) else {
            problems.append("^GF :B64: data is not valid base64")
            return []
        }
        return Array(decoded)
    }
}
