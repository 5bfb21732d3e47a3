import Foundation
import PrintModel
@testable import Rendering

/// Synthetic pages with ink where the tests know it is.
enum TestPages {
    static let dpi203 = Resolution(203)

    /// 639 x 800 dots at 203 dpi: a vertical bar over x 101..<110 on every
    /// row, a checkerboard over x 300..<364, y 200..<264 (ink where x + y is
    /// even), and one dot in the last column (x 638) on row 10.
    static func receipt(format: RasterPage.PixelFormat = .black1, height: Int = 800) -> RasterPage {
        var page = RasterPage(blankWidth: 639, height: height, resolution: dpi203, format: format)
        for y in 0..<height {
            for x in 101..<110 { page.setInk(255, x: x, y: y) }
        }
        for y in 200..<max(200, min(264, height)) {
            for x in 300..<364 where (x + y) % 2 == 0 { page.setInk(255, x: x, y: y) }
        }
        if height > 10 { page.setInk(255, x: 638, y: 10) }
        return page
    }

    static func isInk(x: Int, y: Int, height: Int = 800) -> Bool {
        if (101..<110).contains(x) { return true }
        if (200..<max(200, min(264, height))).contains(y), (300..<364).contains(x) { return (x + y) % 2 == 0 }
        return x == 638 && y == 10
    }

    static func temporaryPath(_ name: String) -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("kp-raster-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir.appendingPathComponent(name).path
    }
}
