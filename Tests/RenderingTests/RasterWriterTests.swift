import CCups
import Foundation
import PrintModel
import Testing
@testable import Rendering

@Suite struct RasterWriterTests {
    let cutAfterPage = RasterPageOptions(cut: .afterPage)

    @Test func pwgBlack1HeaderAndPixels() throws {
        let page = TestPages.receipt(format: .black1)
        let path = TestPages.temporaryPath("receipt.pwg")
        try RasterWriter(format: .pwg).write([.init(page, options: cutAfterPage)], toFile: path)

        let pages = try RasterReader.read(path: path)
        #expect(pages.count == 1)
        let h = try #require(pages.first).header
        #expect(h.mediaClass == "PwgRaster")
        #expect(h.width == 639)
        #expect(h.height == 800)
        #expect(h.resolution == Resolution(203, 203))
        #expect(h.bitsPerColor == 1)
        #expect(h.bitsPerPixel == 1)
        #expect(h.bytesPerLine == 80)   // ceil(639 / 8)
        #expect(h.colorOrder == CUPS_ORDER_CHUNKED.rawValue)
        #expect(h.colorSpace == CUPS_CSPACE_K.rawValue)
        #expect(h.numColors == 1)
        // Media from dots: 639 / 203 in = 79.95 mm, 800 / 203 in = 100.10 mm;
        // PageSize = 72 * hundredths / 2540 rounded down, as libcups does.
        #expect(h.pageSize == [226, 283])
        #expect(h.imagingBoundingBox == [0, 0, 226, 283])
        #expect(h.pageSizeName == "custom_79.95x100.1mm_79.95x100.1mm")
        #expect(h.cutMedia == CUPS_CUT_PAGE.rawValue)
        #expect(h.cut == .afterPage)
        #expect(h.orientation == 0)
        #expect(h.numCopies == 1)
        #expect(h.totalPageCount == 1)
        #expect(h.crossFeedTransform == 1)
        #expect(h.feedTransform == 1)
        #expect(h.imageBox == [0, 0, 639, 800])
        #expect(h.alternatePrimary == 0xFFFFFF)

        let read = try #require(pages.first)
        #expect(read.pixels == page.pixels)
        // MSB-first packing: byte 12 holds x 96..<104, x = 96 in 0x80, so
        // the bar's x 101..<104 are its three low bits; x = 638 is 0x02 of
        // byte 79, whose bit 0 is padding and stays clear.
        #expect(read.pixels[12] == 0x07)            // x 101..<104
        #expect(read.pixels[13] == 0xFC)            // x 104..<110
        #expect(read.pixels[10 * 80 + 79] == 0x02)
        #expect(read.pixels[11 * 80 + 79] == 0x00)
        let raster = try #require(read.raster)
        for (x, y) in [(100, 0), (101, 0), (109, 799), (110, 5), (300, 200), (301, 200), (638, 10), (638, 11), (0, 0)] {
            #expect((raster.ink(x: x, y: y) == 255) == TestPages.isInk(x: x, y: y), "dot \(x),\(y)")
        }
    }

    @Test func pwgSgray8HeaderAndPixels() throws {
        let page = TestPages.receipt(format: .sgray8)
        let options = RasterPageOptions(cut: .afterJob, mediaType: "stationery", mediaSource: "main-roll")
        let data = try RasterWriter(format: .pwg).encode([.init(page, options: options)])
        #expect(Array(data.prefix(4)) == Array("RaS2".utf8))

        let read = try #require(try RasterReader.read(data: data).first)
        let h = read.header
        #expect(h.width == 639 && h.height == 800)
        #expect(h.resolution == Resolution(203))
        #expect(h.bitsPerColor == 8 && h.bitsPerPixel == 8)
        #expect(h.bytesPerLine == 639)
        #expect(h.colorSpace == CUPS_CSPACE_SW.rawValue)
        #expect(h.pageSize == [226, 283])
        #expect(h.pageSizeName == "custom_79.95x100.1mm_79.95x100.1mm")
        #expect(h.cut == .afterJob)
        #expect(h.mediaType == "stationery")
        #expect(h.mediaPosition == 9)   // main-roll in PWG 5102.4's table
        #expect(read.pixels == page.pixels)
        #expect(read.pixels[0] == 0xFF)           // paper is white in sGray
        #expect(read.pixels[101] == 0x00)         // ink is black
    }

    @Test func givenMediaSizeAndName() throws {
        let page = TestPages.receipt()
        let options = RasterPageOptions(
            cut: .afterPage,
            mediaSize: .init(width: .millimetres(80), height: .millimetres(120.5)))
        let h = try #require(try RasterReader.read(data: RasterWriter(format: .pwg).encode([.init(page, options: options)])).first).header
        #expect(h.pageSize == [226, 341])   // 72 * 8000 / 2540, 72 * 12050 / 2540
        #expect(h.pageSizeName == "custom_80x120.5mm_80x120.5mm")

        let named = RasterPageOptions(pageSizeName: "roll_max_80x3000mm")
        let h2 = try #require(try RasterReader.read(data: RasterWriter(format: .pwg).encode([.init(page, options: named)])).first).header
        #expect(h2.pageSizeName == "roll_max_80x3000mm")
        #expect(h2.cut == RasterPageOptions.Cut.none)
    }

    @Test func urfIsEightBitSgray() throws {
        let page = TestPages.receipt(format: .black1)
        let path = TestPages.temporaryPath("receipt.urf")
        try RasterWriter(format: .urf).write([.init(page, options: cutAfterPage)], toFile: path)
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(Array(data.prefix(8)) == Array("UNIRAST".utf8) + [0])

        let read = try #require(try RasterReader.read(path: path).first)
        let h = read.header
        #expect(h.width == 639 && h.height == 800)
        #expect(h.resolution == Resolution(203))
        #expect(h.bitsPerPixel == 8 && h.bitsPerColor == 8)
        #expect(h.bytesPerLine == 639)
        #expect(h.colorSpace == CUPS_CSPACE_SW.rawValue)
        // URF has no PageSize, name or cut: libcups derives PageSize from
        // dots and dpi (rounded down) and leaves the rest empty.
        #expect(h.pageSize == [226, 283])
        #expect(h.pageSizeName == "")
        #expect(h.cut == RasterPageOptions.Cut.none)
        #expect(read.pixels == page.converted(to: .sgray8).pixels)
    }

    @Test func urfRefusesNonSquareResolution() {
        let page = RasterPage(blankWidth: 8, height: 8, resolution: Resolution(300, 200), format: .sgray8)
        #expect(throws: RasterError.self) { try RasterWriter(format: .urf).encode([page]) }
    }

    @Test func threeCutPiecesOfOneReceipt() throws {
        let heights = [300, 1200, 57]
        let pieces = heights.map { TestPages.receipt(height: $0) }
        for format in [RasterWriter.Format.pwg, .urf] {
            let data = try RasterWriter(format: format).encode(pieces, options: cutAfterPage)
            let pages = try RasterReader.read(data: data)
            #expect(pages.map(\.header.height) == heights, "\(format)")
            #expect(pages.allSatisfy { $0.header.width == 639 })
            if format == .pwg {
                #expect(pages.map(\.header.totalPageCount) == [3, 3, 3])
                #expect(pages.allSatisfy { $0.header.cut == .afterPage })
                #expect(pages.map(\.pixels) == pieces.map(\.pixels))
            } else {
                // URF's file header: "UNIRAST\0" then the page count, big-endian,
                // which libcups takes from the first header's cupsInteger[0].
                #expect(Array(data[8..<12]) == [0, 0, 0, 3])
                #expect(pages.map(\.pixels) == pieces.map { $0.converted(to: .sgray8).pixels })
            }
        }
    }

    /// The file read by a decoder written from PWG 5102.4, not by libcups.
    @Test func pwgFileMatchesTheSpecificationByteForByte() throws {
        let pieces = [TestPages.receipt(height: 300), TestPages.receipt(format: .sgray8, height: 120)]
        let data = try RasterWriter(format: .pwg).encode(pieces, options: cutAfterPage)
        let pages = try PWGRawDecoder.decode(data)
        #expect(pages.count == 2)
        let first = try #require(pages.first)
        #expect(first.mediaClass == "PwgRaster")
        #expect(first.u32(268) == 4)                      // CutMedia
        #expect(first.u32(276) == 203 && first.u32(280) == 203)
        #expect(first.u32(352) == 226)                    // PageSize[0]
        #expect(first.u32(372) == 639 && first.u32(376) == 300)
        #expect(first.u32(388) == 1 && first.u32(392) == 80)
        #expect(first.u32(400) == 3)                      // K
        #expect(first.u32(452) == 2)                      // TotalPageCount
        #expect(first.u32(456) == 1 && first.u32(460) == 1)
        #expect(first.u32(468) == 0 && first.u32(472) == 639 && first.u32(476) == 300)
        #expect(first.pixels == pieces[0].pixels)
        #expect(pages[1].u32(400) == 18 && pages[1].u32(388) == 8)
        #expect(pages[1].pixels == pieces[1].pixels)
    }
}
