import Foundation
import PrintModel
@testable import Rendering
import Simulator
import Testing

/// Reads barcodes back with zxing-cpp (`Simulator.BarcodeReader`) from the
/// PNG preview of the printed dots.
enum BarcodeDecoder {
    typealias Reading = BarcodeReader.Reading

    static func decode(pngAt path: String, only format: String? = nil) throws -> [Reading] {
        try BarcodeReader.decode(pngAt: path, only: format)
    }

    /// Draws `barcode`, writes its PNG preview and decodes it.
    static func roundTrip(_ barcode: Barcode, only format: String? = nil) throws -> [Reading] {
        let bitmap = try BarcodeRenderer.render(barcode)
        let path = TestPages.temporaryPath("barcode-\(barcode.symbology.rawValue)-\(barcode.moduleDots).png")
        try PNGPreview.write(bitmap.page(resolution: TestPages.dpi203), toFile: path)
        return try decode(pngAt: path, only: format)
    }
}
