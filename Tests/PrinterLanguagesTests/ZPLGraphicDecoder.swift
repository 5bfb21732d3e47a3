/// A decoder of ZPL II's ASCII graphic data, written from Zebra's "ZPL II
/// Programming Guide" ("Alternative Data Compression Scheme for ~DG and ~DB
/// Commands", and `^GF`'s data parameter) independently of the encoder, so a
/// round trip checks the encoder against the reference, not against itself.
///
/// Reads nibble by nibble, as the printer does: a repeat count (G..Y = 1..19,
/// g..z = 20..400, several adding up) applies to the next hex digit; `,`
/// fills the rest of the row with 0 nibbles, `!` with F nibbles, wherever in
/// the row it comes; `:` at a row's start repeats the previous row. CR and LF
/// are ignored.
enum ZPLGraphicDecoder {
    struct DecodeError: Error, CustomStringConvertible {
        var description: String
    }

    static func decode(_ text: String, bytesPerRow: Int, totalBytes: Int) throws -> [UInt8] {
        let nibblesPerRow = bytesPerRow * 2
        var rows: [[UInt8]] = []
        var row: [UInt8] = []   // nibbles of the row being filled
        var count = 0
        func finishRowIfFull() {
            if row.count == nibblesPerRow { rows.append(row); row = [] }
        }
        for character in text {
            switch character {
            case "\r", "\n":
                continue
            case "G"..."Y":
                count += Int(character.asciiValue! - Character("G").asciiValue!) + 1
            case "g"..."z":
                count += (Int(character.asciiValue! - Character("g").asciiValue!) + 1) * 20
            case ",", "!":
                guard count == 0 else { throw DecodeError(description: "a repeat count before \(character)") }
                let fill: UInt8 = character == "," ? 0 : 0xF
                // At a row start, the fill makes a whole row of its own.
                row += [UInt8](repeating: fill, count: nibblesPerRow - row.count)
                finishRowIfFull()
            case ":":
                guard row.isEmpty, let previous = rows.last else { throw DecodeError(description: "':' not after a whole row") }
                rows.append(previous)
            default:
                guard let value = character.hexDigitValue else { throw DecodeError(description: "unexpected \(character)") }
                let repeats = max(1, count)
                // The encoder never runs a repeat on into the next row; hold it to that.
                guard repeats <= nibblesPerRow - row.count else { throw DecodeError(description: "a repeat runs past the row") }
                row += [UInt8](repeating: UInt8(value), count: repeats)
                finishRowIfFull()
                count = 0
            }
        }
        guard row.isEmpty, count == 0 else { throw DecodeError(description: "data ends inside a row") }
        let bytes = rows.flatMap { nibbles in stride(from: 0, to: nibbles.count, by: 2).map { nibbles[$0] << 4 | nibbles[$0 + 1] } }
        guard bytes.count == totalBytes else { throw DecodeError(description: "\(bytes.count) bytes, expected \(totalBytes)") }
        return bytes
    }
}

/// A small seeded generator (SplitMix64), so "random" bitmaps are the same on every run.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
