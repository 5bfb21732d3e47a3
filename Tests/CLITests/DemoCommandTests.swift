import Foundation
import Testing
import Simulator

/// `kioskprint-demo` as scripts/demo.sh runs it (there against the release
/// build): here, what the raw ESC/POS coupon printer it adds received.
@Suite struct DemoCommandTests {
    @Test func theCouponPrinterOnRawTCPGetsItsPieceAndShowsIt() async throws {
        let previews = FileManager.default.temporaryDirectory.appendingPathComponent("kioskprint-demo-\(UUID().uuidString)")
        // The demo's own lab, Avahi and database: no environment of the tests' lab.
        let result = try await CommandRunner(program: "kioskprint-demo").run(["--previews", previews.path], limit: .seconds(180))
        #expect(result.status == 0, "\(result.errors)\n\(result.output.suffix(2000))")

        #expect(result.output.contains("printers add socket://127.0.0.1:"))
        #expect(result.output.contains("as the primary printer for the role 'coupon'"))
        let line = try #require(result.output.firstMatch(
            of: /Demo Coupon TM-T20III received ([0-9]+) bytes of ESC\/POS over raw TCP .*: 1 piece\(s\), partial cut at ([0-9.]+) mm \(([0-9]+) dots, as planned\)/))
        // Fewer than the whole piece as raster (blank runs go as feeds), more than a bare header.
        #expect(Int(line.1)! < 576 / 8 * Int(line.3)! && Int(line.1)! > 1000, "\(line.1) bytes for \(line.3) rows")

        // The piece as a PNG: one bit a dot, 576 dots across (the TM-T20III's head), as many rows as the cut.
        let png = try Data(contentsOf: previews.appendingPathComponent("received/demo-coupon-tm-t20iii-1.png"))
        #expect(png.prefix(8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
        let width = png[16..<20].reduce(0) { $0 << 8 | Int($1) }, height = png[20..<24].reduce(0) { $0 << 8 | Int($1) }
        #expect(width == 576)
        #expect(height == Int(line.3)!)

        // The POS's part: a receipt posted with curl, followed on the event stream, and the status page.
        #expect(result.output.contains("HTTP 201"), "\(result.output.suffix(3000))")
        #expect(result.output.contains("event: job  \"state\":\"completed\""))
        #expect(result.output.contains("<success>true</success><code>0</code>"), "the WebPRNT coupon printed: \(result.output.suffix(2000))")
        // ...on the kitchen's Star TSP143III, in Star Graphic mode, cut where the plan says.
        #expect(result.output.firstMatch(of: /Demo Kitchen TSP143III received [0-9]+ bytes of Star Graphic over raw TCP .*: 1 piece\(s\), partial cut after [0-9]+ dots, as planned/) != nil,
                "\(result.output.suffix(1500))")
        let page = try Data(contentsOf: previews.appendingPathComponent("status-page.png"))
        #expect(page.starts(with: [0x89, 0x50, 0x4E, 0x47]) && page.count > 10_000)
    }
}
