import Foundation
import Simulator

/// What the ePOS-Print and WebPRNT tests share: the pages of
/// kiosk-config/web-pos served on loopback as a web POS developer serves
/// them, a browser's CORS preflight sent with curl, and a 1-bit image found
/// on the paper and compared dot for dot.
enum WebPosClient {
    /// kiosk-config/web-pos served by Python's http.server; its origin is what the agent must allow.
    static func servePages() async throws -> (server: Spawned, origin: String) {
        let port = try Loopback.freePort()
        let server = try Spawned.start("python3", ["-m", "http.server", String(port), "--bind", "127.0.0.1",
                                                   "--directory", kioskConfigFolder + "/web-pos"],
                                       output: FileManager.default.temporaryDirectory.path + "/kioskprint-web-pos-\(port).log")
        try await pollUntil("the page's server to listen", within: .seconds(20)) { Loopback.accepts(port: port) }
        return (server, "http://127.0.0.1:\(port)")
    }

    /// The preflight a browser sends before a cross-origin POST with these headers, from a private network page.
    static func preflight(_ url: String, origin: String, requestHeaders: String) throws -> Subprocess.Output {
        try Subprocess.run("/usr/bin/curl", ["-s", "-i", "-X", "OPTIONS", "-H", "Origin: \(origin)",
                                             "-H", "Access-Control-Request-Method: POST",
                                             "-H", "Access-Control-Request-Headers: \(requestHeaders)",
                                             "-H", "Access-Control-Request-Private-Network: true", url])
    }

    /// Where a `width` x `height` image of `bits` (rows padded to whole bytes, 1 = black), centred
    /// on a 576-dot head, starts on `paper`, and how many of its dots differ there.
    static func compare(_ bits: [UInt8], width: Int, height: Int, on paper: DotBitmap) -> (top: Int, differing: Int) {
        let rowBytes = (width + 7) / 8, left = (576 - width) / 2
        let top = (0..<paper.height).first { y in paper[left, y] } ?? -1
        guard top >= 0 else { return (top, width * height) }
        var differing = 0
        for y in 0..<height {
            for x in 0..<width where paper[left + x, top + y] != (bits[y * rowBytes + x / 8] & (0x80 >> UInt8(x % 8)) != 0) { differing += 1 }
        }
        return (top, differing)
    }
}
