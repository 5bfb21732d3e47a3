import Testing
import PrinterLanguages

/// The 1-bit bitmap every raw language prints: packing, padding, windows.
@Suite struct MonoBitmapTests {
    @Test func packedMostSignificantBitFirstWithOneForInk() throws {
        let bitmap = try #require(MonoBitmap(picture: ["#........#", ".#........"]))
        #expect(bitmap.width == 10 && bitmap.height == 2 && bitmap.bytesPerRow == 2)
        #expect(bitmap.rows == [0x80, 0x40, 0x40, 0x00])
        #expect(bitmap.ink(x: 0, y: 0) && bitmap.ink(x: 9, y: 0) && bitmap.ink(x: 1, y: 1) && !bitmap.ink(x: 1, y: 0))
        #expect(Array(bitmap.row(1)) == [0x40, 0x00])
    }

    @Test func paddingBitsAreAlwaysPaper() throws {
        let bitmap = try #require(MonoBitmap(width: 10, height: 1, rows: [0xFF, 0xFF]))
        #expect(bitmap.rows == [0xFF, 0xC0], "the 6 bits past dot 10 are cleared")
        #expect(MonoBitmap(width: 10, height: 1, rows: [0xFF]) == nil, "wrong byte count")
        #expect(MonoBitmap(width: 0, height: 1, rows: []) == nil)
        #expect(MonoBitmap(picture: ["##", "#"]) == nil, "rows of different lengths")
    }

    @Test func setAndClearInk() {
        var bitmap = MonoBitmap(width: 9, height: 2)
        bitmap.setInk(true, x: 8, y: 1)
        bitmap.setInk(true, x: 0, y: 0)
        bitmap.setInk(false, x: 0, y: 0)
        #expect(bitmap.rows == [0x00, 0x00, 0x00, 0x80])
    }

    @Test func aColumnWindowCutsThePrintableAreaOutOfAWiderPage() throws {
        let page = try #require(MonoBitmap(picture: ["..##..##..#.#", "#...........#"]))
        let window = try #require(page.columns(2..<11))
        #expect(window.width == 9 && window.height == 2)
        for y in 0..<2 {
            for x in 0..<9 { #expect(window.ink(x: x, y: y) == page.ink(x: x + 2, y: y), "(\(x), \(y))") }
        }
        #expect(page.columns(0..<13) == page)
        #expect(page.columns(5..<5) == nil && page.columns(10..<14) == nil && page.columns(-1..<3) == nil)
    }

    @Test func windowsOfALargePageMatchDotForDot() throws {
        // An 80 mm page at 203 dpi is 639 dots; the head prints 576 from dot 32.
        var page = MonoBitmap(width: 639, height: 3)
        for x in stride(from: 0, to: 639, by: 7) { page.setInk(true, x: x, y: x % 3) }
        let window = try #require(page.columns(32..<608))
        #expect(window.bytesPerRow == 72)
        for y in 0..<3 { for x in 0..<576 { #expect(window.ink(x: x, y: y) == page.ink(x: x + 32, y: y)) } }
        let shifted = try #require(page.columns(35..<639))
        #expect(shifted.width == 604 && (0..<604).allSatisfy { shifted.ink(x: $0, y: 1) == page.ink(x: $0 + 35, y: 1) })
    }

    @Test func inkedBytesPerRowCountsUpToTheLastInkedByte() {
        let bitmap = MonoBitmap(picture: ["................", "#...............", "........#.......", ".........#......"])!
        #expect(bitmap.inkedBytesPerRow() == [0, 1, 2, 2])
    }
}
