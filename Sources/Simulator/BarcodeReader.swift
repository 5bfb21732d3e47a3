import Foundation

/// Reads barcodes back with zxing-cpp (Python), the way a scanner would:
/// from a PNG of the printed dots. An independent decoder for the tests of
/// every printer that prints barcodes (IPP raster, ESC/POS, ZPL alike).
public enum BarcodeReader {
    /// One symbol read: zxing-cpp's format name and the text it holds.
    public struct Reading: Equatable, Sendable, CustomStringConvertible {
        public var format: String
        public var text: String
        public init(format: String, text: String) { self.format = format; self.text = text }
        public var description: String { "\(format): \(text)" }
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
    public static func decode(pngAt path: String, only format: String? = nil) throws -> [Reading] {
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

    public struct DecoderMissing: Error, CustomStringConvertible {
        var detail: String
        public var description: String {
            "The barcode decoder is not installed (\(detail.trimmingCharacters(in: .whitespacesAndNewlines))): "
                + "run scripts/install-deps.sh, or python3 -m pip install zxing-cpp pillow."
        }
    }

    public struct DecoderFailed: Error, CustomStringConvertible {
        var status: Int32
        var errors: String
        public var description: String { "zxing-cpp decoding failed with status \(status): \(errors)" }
    }
}
