import PrintModel
@testable import Rendering
import Testing

/// Whole-dot modules, measured in the drawn dots rather than trusted.
@Suite struct BarcodeGeometryTests {
    /// Lengths of the runs of ink along row `y`.
    static func inkRuns(_ bitmap: BarcodeBitmap, row y: Int) -> [Int] {
        var runs: [Int] = [], current = 0
        for x in 0..<bitmap.width {
            if bitmap.ink(x: x, y: y) != 0 { current += 1 } else if current > 0 { runs.append(current); current = 0 }
        }
        if current > 0 { runs.append(current) }
        return runs
    }

    @Test func code128NarrowestBarIsExactlyTheModule() throws {
        let bitmap = try BarcodeRenderer.render(Barcode(.code128, data: "KIOSK-0042", moduleDots: 3))
        let runs = Self.inkRuns(bitmap, row: bitmap.height / 2)
        #expect(runs.min() == 3)
        // Every bar is 1 to 4 modules wide: whole multiples of 3 dots.
        #expect(runs.allSatisfy { $0 % 3 == 0 && (3...12).contains($0) }, "\(runs)")
    }

    @Test(arguments: [Barcode.Symbology.code128, .ean13, .upca, .itf, .code39], [2, 3])
    func linearBarsAreWholeModules(symbology: Barcode.Symbology, module: Int) throws {
        let data = BarcodeDecodeTests.samples.first { $0.symbology == symbology }!.data
        let bitmap = try BarcodeRenderer.render(Barcode(symbology, data: data, moduleDots: module))
        let runs = Self.inkRuns(bitmap, row: bitmap.height / 2)
        #expect(runs.min() == module, "\(symbology) at \(module): \(runs)")
        #expect(runs.allSatisfy { $0 % module == 0 }, "\(symbology) at \(module): \(runs)")
    }

    @Test func barHeightIsInDots() throws {
        let bitmap = try BarcodeRenderer.render(Barcode(.code128, data: "KIOSK", moduleDots: 3, barHeightDots: 100))
        let x = (0..<bitmap.width).first { bitmap.ink(x: $0, y: bitmap.height / 2) != 0 }!
        let inked = (0..<bitmap.height).filter { bitmap.ink(x: x, y: $0) != 0 }.count
        #expect(inked == 100)
    }

    @Test func qrFinderPatternIsSevenModulesOfFourDots() throws {
        let bitmap = try BarcodeRenderer.render(Barcode(.qr, data: "https://kiosk.example/r/42", moduleDots: 4))
        let top = try #require((0..<bitmap.height).first { y in (0..<bitmap.width).contains { bitmap.ink(x: $0, y: y) != 0 } })
        let left = try #require((0..<bitmap.width).first { bitmap.ink(x: $0, y: top) != 0 })
        // The quiet zone is 4 modules: 16 dots of paper before the finder.
        #expect(top == 16 && left == 16)
        #expect(Self.inkRuns(bitmap, row: top).first == 28)
        let down = (top..<bitmap.height).prefix { bitmap.ink(x: left, y: $0) != 0 }.count
        #expect(down == 28)
        #expect(bitmap.width % 4 == 0 && bitmap.height % 4 == 0)
    }
}
