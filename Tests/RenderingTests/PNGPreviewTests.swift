import CPangoCairo
import Foundation
import PrintModel
import Testing
@testable import Rendering

@Suite struct PNGPreviewTests {
    @Test(arguments: RasterPage.PixelFormat.allCases)
    func blackInkOnWhitePaper(format: RasterPage.PixelFormat) throws {
        var page = RasterPage(blankWidth: 20, height: 10, resolution: Resolution(203), format: format)
        page.setInk(255, x: 3, y: 4)
        page.setInk(255, x: 19, y: 9)
        let path = TestPages.temporaryPath("preview.png")
        try PNGPreview.write(page, toFile: path)

        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(Array(bytes.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])

        let surface = try #require(cairo_image_surface_create_from_png(path))
        defer { cairo_surface_destroy(surface) }
        #expect(cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS)
        #expect(cairo_image_surface_get_width(surface) == 20)
        #expect(cairo_image_surface_get_height(surface) == 10)
        let stride = Int(cairo_image_surface_get_stride(surface))
        let data = try #require(cairo_image_surface_get_data(surface))
        // RGB24 / ARGB32: one native-endian 32-bit word per pixel, 0x00RRGGBB.
        func rgb(_ x: Int, _ y: Int) -> UInt32 {
            UnsafeRawPointer(data + y * stride + x * 4).loadUnaligned(as: UInt32.self) & 0xFFFFFF
        }
        #expect(rgb(3, 4) == 0x000000)
        #expect(rgb(19, 9) == 0x000000)
        for (x, y) in [(0, 0), (4, 4), (3, 5), (2, 4), (19, 8)] { #expect(rgb(x, y) == 0xFFFFFF, "\(x),\(y)") }
    }

    @Test func receiptPreviewHasTheBar() throws {
        let path = TestPages.temporaryPath("receipt.png")
        try PNGPreview.write(TestPages.receipt(), toFile: path)
        let surface = try #require(cairo_image_surface_create_from_png(path))
        defer { cairo_surface_destroy(surface) }
        #expect(cairo_image_surface_get_width(surface) == 639)
        #expect(cairo_image_surface_get_height(surface) == 800)
    }
}
