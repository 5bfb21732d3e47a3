import Foundation

/// python-escpos (PyPI), the independent ESC/POS client: a `Network` printer
/// that asks `is_online()` and `paper_status()` (DLE EOT 1 and 4), then prints
/// a line of text, a 128 x 64 raster image (GS v 0), a native QR code (GS ( k)
/// and a cut, and reports what it sent apart from its status asks.
public enum PythonEscpos {
    public struct Result: Sendable, CustomStringConvertible {
        /// What `is_online()` said.
        public var online: Bool?
        /// What `paper_status()` said: 2 adequate, 1 near end, 0 out.
        public var paper: Int?
        /// Every byte it wrote after its status asks.
        public var sent: [UInt8]
        public var description: String { "online \(online.map(String.init) ?? "-"), paper \(paper.map(String.init) ?? "-"), \(sent.count) bytes" }
    }

    static let script = #"""
        import json, sys
        from escpos.printer import Network
        from PIL import Image, ImageDraw
        port, out, mode = int(sys.argv[1]), sys.argv[2], sys.argv[3]
        p = Network("127.0.0.1", port=port, timeout=30)
        sent = bytearray()
        write = p._raw
        def record(data):
            sent.extend(data)
            write(data)
        p._raw = record
        result = {"online": p.is_online(), "paper": p.paper_status()}
        sent.clear()
        if mode == "print":
            p.text("KioskPrint raw test\n")
            image = Image.new("1", (128, 64), 1)
            ImageDraw.Draw(image).rectangle((8, 8, 119, 55), outline=0, width=4)
            p.image(image)
            p.qr("https://example.com/raw", native=True, size=6)
            p.cut()
        p.close()
        result["sent"] = sent.hex()
        json.dump(result, open(out, "w"))
        """#

    /// Runs it against 127.0.0.1:`port`, its report written in `folder`; `mode` "print" or "status" (the asks only).
    public static func run(port: Int, folder: String, mode: String = "print") throws -> Result {
        let out = folder + "/python-escpos-\(UUID().uuidString.prefix(6)).json"
        let run = try Subprocess.run(try ProgramPath.find("python3"), ["-c", script, String(port), out, mode], limit: .seconds(90))
        guard run.status == 0, let data = FileManager.default.contents(atPath: out),
              let json = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw PythonEscposError(detail: "python-escpos failed (install it with python3 -m pip install python-escpos): \(run.errors.suffix(600))")
        }
        let hex = Array((json["sent"] as? String ?? "").utf8)
        let sent = stride(from: 0, to: hex.count - 1, by: 2).compactMap { UInt8(String(decoding: hex[$0...$0 + 1], as: UTF8.self), radix: 16) }
        return Result(online: json["online"] as? Bool, paper: json["paper"] as? Int, sent: sent)
    }

    /// The bytes python-escpos's `text()` writes for each text on its `Dummy`
    /// printer with the TM-T88IV profile: with the text's `charcode`
    /// (`CP437`, ...) in that code page alone, else in the page its `magic`
    /// encoder picks. One Python process for all of them: each start imports
    /// python-escpos and Pillow, which a test should pay once.
    public static func textBytes(_ texts: [(text: String, charcode: String?)]) throws -> [[UInt8]] {
        let script = """
            import json, sys
            from escpos.printer import Dummy
            out = []
            for text, charcode in json.loads(sys.argv[1]):
                p = Dummy(profile="TM-T88IV")
                if charcode:
                    p.charcode(charcode)
                p.text(text)
                out.append(p.output.hex())
            sys.stdout.write(json.dumps(out))
            """
        let request = try JSONSerialization.data(withJSONObject: texts.map { [$0.text, $0.charcode ?? ""] })
        let run = try Subprocess.run(try ProgramPath.find("python3"), ["-c", script, String(decoding: request, as: UTF8.self)],
                                     limit: .seconds(60))
        guard run.status == 0, let hexes = try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String],
              hexes.count == texts.count else {
            throw PythonEscposError(detail: "python-escpos failed (install it with python3 -m pip install python-escpos): \(run.errors.suffix(600))")
        }
        return hexes.map { hex in
            let digits = Array(hex.utf8)
            return stride(from: 0, to: digits.count - 1, by: 2).compactMap { UInt8(String(decoding: digits[$0...$0 + 1], as: UTF8.self), radix: 16) }
        }
    }

    /// Only the status asks.
    public static func status(port: Int, folder: String) throws -> Result { try run(port: port, folder: folder, mode: "status") }
}

public struct PythonEscposError: Error, CustomStringConvertible {
    public var detail: String
    public var description: String { detail }
}
