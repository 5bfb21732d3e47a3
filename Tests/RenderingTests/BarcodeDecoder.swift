import Foundation
import PrintModel
@testable import Rendering
import Simulator
import Testing

/// Reads barcodes back with zxing-cpp (Python), the way a scanner would:
/// from the PNG preview of the printed dots.
enum BarcodeDecoder {
    struct Reading: Equatable, CustomStringConvertible {
        var format: String
        var text: String
        var description: String { "\(format): \(text)" }
    }

    /// Prints one line per symbol found: format name, a tab, the text as JSON
    /// (so newlines or tabs in the data cannot break the parsing).
    private static let script = """
        import json, sys
        try:
            import zxingcpp
            from PIL import Image
        except ImportError as error:
            print("decoder missing:", error, file=sys.stderr)
            sys.exit(3)
        image = Image.open(sys.argv[1]).convert("L")
        if len(sys.argv) > 2:
            results = zxingcpp.read_barcodes(image, formats=getattr(zxingcpp.BarcodeFormat, sys.argv[2]))
        else:
            results = zxingcpp.read_barcodes(image)
        for result in results:
            print(result.format.name + "\\t" + json.dumps(result.text))
        """

    /// Decodes the PNG at `path`. A missing decoder is a failure with the fix
    /// in its message, never a silent skip.
    /// `only` restricts the decoder to one format (zxing-cpp's name).
    static func decode(pngAt path: String, only format: String? = nil) throws -> [Reading] {
        let run = try Subprocess.run("python3", ["-c", script, path] + (format.map { [$0] } ?? []),
                                     limit: .seconds(60))
        if run.status == 3 {
            throw DecoderMissing(detail: run.errors)
        }
        guard run.status == 0 else { throw DecoderFailed(status: run.status, errors: run.errors) }
        return try run.output.split(separator: "\n").map { line in
            let parts = line.split(separator: "\t", maxSplits: 1).map(String.init)
            let text = try JSONDecoder().decode(String.self, from: Data((parts.count > 1 ? parts[1] : "\"\"").utf8))
            return Reading(format: parts[0], text: text)
        }
    }

    /// Draws `barcode`, writes its PNG preview and decodes it.
    static func roundTrip(_ barcode: Barcode, only format: String? = nil) throws -> [Reading] {
        let bitmap = try BarcodeRenderer.render(barcode)
        let path = TestPages.temporaryPath("barcode-\(barcode.symbology.rawValue)-\(barcode.moduleDots).png")
        try PNGPreview.write(bitmap.page(resolution: TestPages.dpi203), toFile: path)
        return try decode(pngAt: path, only: format)
    }

    struct DecoderMissing: Error, CustomStringConvertible {
        var detail: String
        var description: String {
            "The barcode decoder is not installed (\(detail.trimmingCharacters(in: .whitespacesAndNewlines))): "
                + "run scripts/install-deps.sh, or python3 -m pip install zxing-cpp pillow."
        }
    }

    struct DecoderFailed: Error, CustomStringConvertible {
        var status: Int32
        var errors: String
        var description: String { "zxing-cpp decoding failed with status \(status): \(errors)" }
    }
}
