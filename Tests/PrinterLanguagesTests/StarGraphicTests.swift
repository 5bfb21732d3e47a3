import PrinterLanguages
import PrintModel
import Testing

/// Star Graphic mode's bytes read back by a decoder written from Star's
/// command specification (not from the encoder): every piece comes back dot
/// for dot, as long as its bitmap, cut as asked; the automatic status reads
/// as Star's appendix lays it out.
@Suite struct StarGraphicTests {
    /// What a TSP100 would do with the bytes, as far as paper goes.
    struct Decoded {
        var pieces: [[[Bool]]] = []
        var cuts: [Int] = []
        var drawer: Int?
        var formFeedMode: Int?
        var inRaster = false
    }

    static func decode(_ bytes: [UInt8], width: Int) throws -> Decoded {
        var decoded = Decoded(), current: [[Bool]] = [], index = 0
        func number() throws -> Int {
            var digits = ""
            while index < bytes.count, bytes[index] != 0 { digits.append(Character(Unicode.Scalar(bytes[index]))); index += 1 }
            index += 1  // the NUL
            return try #require(Int(digits), "a number in ASCII decimal")
        }
        while index < bytes.count {
            if bytes[index] == 0x62 {  // b n1 n2 data
                let count = Int(bytes[index + 1]) | Int(bytes[index + 2]) << 8
                let data = bytes[(index + 3)..<(index + 3 + count)]
                current.append((0..<width).map { x in x / 8 < data.count && data[data.startIndex + x / 8] & (0x80 >> UInt8(x % 8)) != 0 })
                index += 3 + count
                continue
            }
            guard bytes[index] == 0x1B else { Issue.record("a byte outside a command: \(bytes[index]) at \(index)"); return decoded }
            let next = Array(bytes[(index + 1)..<min(bytes.count, index + 4)])
            if next.starts(with: [0x40]) { index += 2 }  // ESC @
            else if next.starts(with: [0x07]) { index += 4 }  // ESC BEL n1 n2
            else if next.starts(with: [0x0C, 0x00]) { decoded.pieces.append(current); decoded.cuts.append(decoded.formFeedMode ?? 0); current = []; index += 3 }
            else if next.starts(with: [0x2A, 0x72]) {
                let letter = bytes[index + 3]
                index += 4
                switch letter {
                case UInt8(ascii: "R"): break
                case UInt8(ascii: "A"): decoded.inRaster = true
                case UInt8(ascii: "B"): decoded.inRaster = false
                case UInt8(ascii: "Y"): current += Array(repeating: Array(repeating: false, count: width), count: try number())
                case UInt8(ascii: "F"): decoded.formFeedMode = try number()
                case UInt8(ascii: "D"): decoded.drawer = try number()
                case UInt8(ascii: "Q"), UInt8(ascii: "P"), UInt8(ascii: "E"): _ = try number()
                default: Issue.record("ESC * r \(Character(Unicode.Scalar(letter))) is not expected"); return decoded
                }
            } else { Issue.record("an unexpected ESC at \(index)"); return decoded }
        }
        return decoded
    }

    static let receipt = MonoBitmap(picture: [
        "########....................",
        "............................",
        "............................",
        "..#.#.#.#.#.#.#.............",
        "............................",
        "...........................#",
        "............................",
    ])!

    @Test func piecesComeBackDotForDotAsLongAsTheirBitmapsAndCutAsAsked() throws {
        let second = MonoBitmap(picture: ["#...", "....", "...."])!
        let bytes = StarGraphicRaster.encode(pieces: [Self.receipt, second], cut: .init(.partial), copies: 2,
                                             drawer: (outputs: 1, pulse: try #require(StarGraphicCommand.drawerPulse(onMilliseconds: 200, offMilliseconds: 200))))
        let decoded = try Self.decode(bytes, width: 28)
        #expect(!decoded.inRaster, "raster mode is quit at the end")
        #expect(decoded.pieces.count == 4 && decoded.cuts == [13, 13, 13, 13], "partial cut (13) after each piece, twice over")
        #expect(decoded.drawer == 1)
        for (index, bitmap) in [Self.receipt, second, Self.receipt, second].enumerated() {
            let piece = decoded.pieces[index]
            #expect(piece.count == bitmap.height, "piece \(index) is \(piece.count) rows, its bitmap \(bitmap.height)")
            for y in 0..<min(piece.count, bitmap.height) {
                for x in 0..<bitmap.width where piece[y][x] != bitmap.ink(x: x, y: y) { Issue.record("piece \(index) differs at \(x),\(y)") }
            }
        }
    }

    @Test func whiteRunsGoAsFeedsAndRowsLoseTheirTrailingWhiteBytes() {
        var tall = MonoBitmap(width: 576, height: 2500)
        tall.setInk(true, x: 0, y: 0)
        tall.setInk(true, x: 575, y: 2499)
        let bytes = StarGraphicRaster.encode(pieces: [tall], cut: .fullCut)
        // Row 0: one byte of 72; then 2498 white rows as feeds of at most 1000; the last row whole.
        #expect(bytes.count < 200, "\(bytes.count) bytes for a 2500-row piece with two dots")
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.contains("\u{1B}*rY1000\0\u{1B}*rY1000\0\u{1B}*rY498\0"))
        #expect(bytes.starts(with: [0x1B, 0x40, 0x1B, 0x2A, 0x72, 0x52, 0x1B, 0x2A, 0x72, 0x41]))
    }

    @Test func theAutomaticStatusReadsAsStarsAppendixSaysAndIsFoundInAStream() throws {
        // Header 1 0x23: 9 bytes. Paper end and off line, as a TSP100 out of paper answers.
        let answer: [UInt8] = [0x23, 0x86, 0x08, 0x00, 0x00, 0x08, 0x00, 0x00, 0x00]
        #expect(StarAutomaticStatus.length(header: 0x23) == 9 && StarAutomaticStatus.length(header: 0x0F) == 7
                && StarAutomaticStatus.length(header: 0x2F) == 15)
        #expect(StarAutomaticStatus.first(in: Array(answer.prefix(8))) == nil, "a partial answer waits for more")
        let found = try #require(StarAutomaticStatus.first(in: [0x11] + answer + [0x23]))  // an XON before, the next header after
        #expect(found.end == 10)
        #expect(found.status.paperEnd && found.status.offline && !found.status.coverOpen)
        #expect(found.status.status.reasons.contains { $0.keyword == "media-empty" }, "\(found.status.status.reasons)")
    }
}
