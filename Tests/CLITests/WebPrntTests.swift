import Foundation
import Simulator
import Testing

/// A role served as a Star WebPRNT printer (`webprnt = true`), posted to with
/// curl in the form StarWebPrintTrader sends (text/xml, `<root>` escaped in
/// `<Request>`, element text in Star's `\xNN` escapes): the receipt of Star's
/// SDK sample, barcodes, a bit image, status, the drawer, paper out, and the
/// refusals. The role's printer is the ESC/POS simulator, which decodes what
/// it receives: an Epson-language printer behind a Star client.
extension AgentEndToEnd {
    @Suite(.timeLimit(.minutes(4))) struct WebPrntTests {
        /// The Trader's body: `<root>` escaped as text inside `<Request>`.
        static func envelope(_ request: String, root: String = "<root>") -> String {
            let inner = (root + request + "</root>").replacingOccurrences(of: "&", with: "&amp;")
                .replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
            return #"<StarWebPrint xmlns="http://www.star-m.jp" xmlns:i="http://www.w3.org/2001/XMLSchema-instance"><Request>"#
                + inner + "</Request></StarWebPrint>"
        }

        /// A kiosk whose `receipt` role (and, with `kitchen`, a second role) is the ESC/POS simulator, served over WebPRNT.
        struct Kiosk {
            let site: AgentHarness
            let agent: Spawned
            let port: Int
            var url: String { "http://127.0.0.1:\(port)/StarWebPRNT/SendMessage" }

            static func start(_ printer: EscPosPrinterSimulator, origins: [String] = ["https://pos.example.com"],
                              kitchen: EscPosPrinterSimulator? = nil) async throws -> Kiosk {
                let site = try AgentHarness(lab: try await PrinterLab.shared())
                let port = try Loopback.freePort()
                try site.writeConfiguration("""
                    [ipp]
                    listen = "127.0.0.1:\(port)"
                    [webprnt]
                    origins = [\(origins.map { "\"\($0)\"" }.joined(separator: ", "))]
                    [role.receipt]
                    webprnt = true
                    \(kitchen == nil ? "" : "[role.kitchen]\nwebprnt = true")
                    """)
                for (role, simulator) in [("receipt", printer)] + (kitchen.map { [("kitchen", $0)] } ?? []) {
                    let added = try await site.runner.run(["printers", "add", simulator.uri, "--role", role, "--model", "TM-T20III"])
                    #expect(added.status == 0, "\(added.output)\(added.errors)")
                }
                return Kiosk(site: site, agent: try await site.start(), port: port)
            }

            /// POSTs `body` with curl as the Trader does; returns the status line, headers and body.
            func post(_ body: String, query: String = "", headers: [String] = []) throws -> Subprocess.Output {
                let file = site.folder + "/webprnt-\(UUID().uuidString.prefix(6)).xml"
                try Data(body.utf8).write(to: URL(fileURLWithPath: file))
                return try Subprocess.run("/usr/bin/curl", ["-s", "-i", "-H", "Content-Type: text/xml; charset=UTF-8"]
                    + headers.flatMap { ["-H", $0] } + ["--data-binary", "@" + file, url + (query.isEmpty ? "" : "?" + query)],
                    limit: .seconds(90))
            }
        }

        /// An element of the `<root>` answer, as the Trader cuts it out of `<Response>`'s text.
        static func answer(_ name: String, in output: String) -> String? {
            output.firstMatch(of: try! Regex("&lt;\(name)&gt;([^&]*)&lt;/\(name)&gt;")).flatMap { $0.output[1].substring.map(String.init) }
        }

        /// The Trader's getters: `parseInt(traderStatus.substr(offset, 2), 16) & bit`.
        static func statusBit(_ output: String, at offset: Int, _ bit: Int) -> Bool {
            guard let hex = answer("status", in: output), hex.count >= offset + 2 else { return false }
            let start = hex.index(hex.startIndex, offsetBy: offset)
            return (Int(hex[start ..< hex.index(start, offsetBy: 2)], radix: 16) ?? 0) & bit != 0
        }

        /// Star's SDK sample receipt, as its Builder writes it (`\x20` spaces, a
        /// width-2 total beside width-1 spaces), with a Code 128 and a QR code.
        @Test func starsSampleReceiptPrintsAndItsCodesDecode() async throws {
            let printer = try EscPosPrinterSimulator()
            defer { printer.stop() }
            let kiosk = try await Kiosk.start(printer)
            let request = #"""
                <initialization/><text characterspace="0"/><alignment position="center"/>\#
                <text>Thank\x20you\x20for\x20your\x20coming.\x20\x0a</text><alignment position="left"/><text>\x0a</text>\#
                <text>Apple\x20\x20\x20\x20\x20\x20\x20\x20\x20\x20\x20\x20\x20\x20\x20\x20$20.00\x0a</text>\#
                <text emphasis="true">Subtotal\x20\x20\x20\x20\x20\x20\x20\x20\x20\x20\x20\x20$200.00\x0a</text>\#
                <text underline="true">Tax\x20\x20\x20\x20\x20\x20\x20\x20\x20\x20\x20\x20\x20\x20\x20\x20\x20\x20$10.00\x0a</text>\#
                <text underline="false"/><text emphasis="true"/><text width="2">Total</text><text width="1">\x20\x20\x20</text>\#
                <text width="2">$210.00\x0a</text><text width="1"/><text emphasis="false"/><text>\x0a</text>\#
                <alignment position="center"/><barcode symbology="Code128" width="width2" height="60" hri="true">No.4711-0042</barcode>\#
                <feed unit="12"/><qrcode model="model2" level="level_m" cell="6">https://example.com/star/4711</qrcode>\#
                <feed unit="12"/><barcode symbology="JAN8" width="width3" height="60" hri="true">9638507</barcode>\#
                <feed unit="12"/><barcode symbology="NW7" width="width3" height="60" hri="true">A40156B</barcode>\#
                <text characterspace="0"/><cutpaper feed="true"/>
                """#
            let answer = try kiosk.post(Self.envelope(request))
            #expect(answer.output.hasPrefix("HTTP/1.1 200") && answer.output.lowercased().contains("content-type: text/xml"), "\(answer.output)")
            #expect(Self.answer("success", in: answer.output) == "true", "\(answer.output)")
            #expect(Self.answer("code", in: answer.output) == "0", "\(answer.output)")
            #expect(Self.answer("status", in: answer.output)?.hasPrefix("2386") == true, "Star's automatic status: \(answer.output)")
            let piece = try #require(try await printer.pieces(atLeast: 1, within: .seconds(30)).first)
            let png = kiosk.site.folder + "/webprnt-receipt.png"
            try piece.bitmap.writePNG(to: png)
            let read = try BarcodeReader.decode(pngAt: png)
            #expect(read.contains { $0.text == "No.4711-0042" }, "the Code 128 decodes: \(read)")
            #expect(read.contains { $0.text == "https://example.com/star/4711" }, "the QR code decodes: \(read)")
            #expect(read.contains { $0.text == "96385074" } && read.contains { $0.text == "A40156B" }, "JAN8 and NW7 (Codabar) decode: \(read)")
            #expect(try await kiosk.site.jobStates() == ["completed"])
            await kiosk.site.stop(kiosk.agent)
        }

        /// A canvas sent as the Builder's `<bitimage>` (rows padded to bytes), centred: dot for dot on the 576-dot head, cut where it ends.
        @Test func aBitImagePrintsDotForDot() async throws {
            let printer = try EscPosPrinterSimulator()
            defer { printer.stop() }
            let kiosk = try await Kiosk.start(printer)
            let (width, height) = (200, 240)  // 25 bytes a row; 30 mm, longer than the shortest piece the roll cuts
            var bits = [UInt8](repeating: 0, count: (width + 7) / 8 * height)
            for y in 0..<height { for x in 0..<width where (x / 10 + y / 10) % 2 == 0 || y == 0 { bits[y * 25 + x / 8] |= 0x80 >> UInt8(x % 8) } }
            let request = #"<alignment position="center"/><bitimage width="\#(width)" height="\#(height)">\#(Data(bits).base64EncodedString())</bitimage><cutpaper feed="true"/>"#
            let answer = try kiosk.post(Self.envelope(request))
            #expect(Self.answer("success", in: answer.output) == "true", "\(answer.output)")
            let piece = try #require(try await printer.pieces(atLeast: 1, within: .seconds(30)).first)
            let (top, differing) = WebPosClient.compare(bits, width: width, height: height, on: piece.bitmap)
            #expect(top >= 0 && differing == 0, "the image dot for dot, centred: \(differing) dots differ")
            #expect(piece.lengthInDots == height, "cut where the image ends: \(piece.lengthInDots) dots")
            await kiosk.site.stop(kiosk.agent)
        }

        /// The same body again prints once; an empty request is a status ask; a
        /// peripheral alone kicks the drawer; checkedblock="false" answers once queued.
        @Test func aResentRequestPrintsOnceAndStatusAndDrawerAreAnswered() async throws {
            let printer = try EscPosPrinterSimulator()
            defer { printer.stop() }
            let kiosk = try await Kiosk.start(printer)
            let body = Self.envelope(#"<text>ONCE\x0a</text><cutpaper feed="true"/>"#)
            #expect(Self.answer("success", in: try kiosk.post(body).output) == "true")
            #expect(Self.answer("success", in: try kiosk.post(body).output) == "true", "the second answer is the first job's")
            #expect(try await kiosk.site.jobStates() == ["completed"], "one job for two identical requests")

            let asked = try kiosk.post(Self.envelope(""))
            #expect(Self.answer("success", in: asked.output) == "true" && Self.answer("status", in: asked.output) == "2386000000000000000000",
                    "\(asked.output)")
            let drawer = try kiosk.post(Self.envelope(#"<peripheral channel="1" on="200" off="200"/>"#))
            #expect(Self.answer("success", in: drawer.output) == "true", "\(drawer.output)")
            let pulses = try await printer.record("the drawer pulse", within: .seconds(10)) { !$0.drawerPulses.isEmpty }.drawerPulses
            #expect(pulses.first?.pin == 2, "channel 1 is pin 2: \(pulses)")
            #expect(try await kiosk.site.jobStates().count == 1, "neither asked for a job")

            let unchecked = try kiosk.post(Self.envelope(#"<text>UNCHECKED\x0a</text>"#, root: #"<root checkedblock="false">"#))
            #expect(Self.answer("success", in: unchecked.output) == "true", "\(unchecked.output)")
            #expect(try await printer.pieces(atLeast: 2, within: .seconds(30)).count == 2, "queued at the answer, printed after it")
            await kiosk.site.stop(kiosk.agent)
        }

        /// Out of paper: success false, code 1100, the Trader's isPaperEnd and
        /// isOffLine, and the job cancelled, so the POS's retry is the only print.
        @Test func aPaperOutPrinterAnswersPaperEndAndTheJobIsCancelled() async throws {
            let printer = try EscPosPrinterSimulator()
            defer { printer.stop() }
            let kiosk = try await Kiosk.start(printer)
            printer.update { $0.paperOut = true }
            let answer = try kiosk.post(Self.envelope(#"<text>NO\x20PAPER\x0a</text><cutpaper feed="true"/>"#), query: "timeout=3000")
            #expect(Self.answer("success", in: answer.output) == "false", "\(answer.output)")
            #expect(Self.answer("code", in: answer.output) == "1100", "\(answer.output)")
            #expect(Self.statusBit(answer.output, at: 10, 8), "isPaperEnd: \(answer.output)")
            #expect(Self.statusBit(answer.output, at: 4, 8), "isOffLine: \(answer.output)")
            #expect(try await kiosk.site.jobStates() == ["canceled"])
            await kiosk.site.stop(kiosk.agent)
        }

        /// Refusals, each saying what to change: what is not drawn (400, the element
        /// named), a role not served, several roles and none named, another origin
        /// (403, before anything is queued); and the preflight of an allowed one.
        @Test func refusalsSayWhatToChange() async throws {
            let printer = try EscPosPrinterSimulator(), kitchen = try EscPosPrinterSimulator()
            defer { printer.stop(); kitchen.stop() }
            let kiosk = try await Kiosk.start(printer, kitchen: kitchen)
            let logo = try kiosk.post(Self.envelope(#"<logo number="1"/>"#), query: "role=receipt")
            #expect(logo.output.hasPrefix("HTTP/1.1 400") && logo.output.contains("<logo> prints a logo stored in a Star printer's memory"),
                    "\(logo.output)")
            let unnamed = try kiosk.post(Self.envelope(""))
            #expect(unnamed.output.hasPrefix("HTTP/1.1 404") && unnamed.output.contains("add ?role=NAME"), "\(unnamed.output)")
            let unknown = try kiosk.post(Self.envelope(""), query: "role=bar")
            #expect(unknown.output.hasPrefix("HTTP/1.1 404") && unknown.output.contains("served: kitchen, receipt"), "\(unknown.output)")
            let named = try kiosk.post(Self.envelope(""), query: "role=kitchen")
            #expect(Self.answer("success", in: named.output) == "true", "\(named.output)")
            let stranger = try kiosk.post(Self.envelope(#"<text>EVIL</text>"#), query: "role=receipt", headers: ["Origin: https://evil.example"])
            #expect(stranger.output.hasPrefix("HTTP/1.1 403") && stranger.output.contains("webprnt"), "\(stranger.output)")
            let preflight = try WebPosClient.preflight(kiosk.url, origin: "https://pos.example.com", requestHeaders: "content-type")
            #expect(preflight.output.hasPrefix("HTTP/1.1 204"), "\(preflight.output)")
            for header in ["access-control-allow-origin: https://pos.example.com", "access-control-allow-private-network: true",
                           "access-control-allow-headers: content-type"] {
                #expect(preflight.output.lowercased().contains(header), "\(header) in \(preflight.output)")
            }
            #expect(try await kiosk.site.jobStates().isEmpty, "nothing refused was queued")
            // What an administrator gives the tills: `status` names the address, though no role is an IPP printer.
            let status = try await kiosk.site.runner.run(["status"])
            #expect(status.output.contains("Role printers: none over IPP.\n  WebPRNT (kitchen, receipt) at \(kiosk.url)\n"), "\(status.output)")
            await kiosk.site.stop(kiosk.agent)
        }

        /// kiosk-config/web-pos/try-webprnt.html, served from an allowed origin and run in
        /// headless Chromium: its XMLHttpRequest (text/xml, so preflighted) prints, and the page reads the answer as the Trader does.
        @Test func theWebPageInKioskConfigPrintsFromChromium() async throws {
            let printer = try EscPosPrinterSimulator()
            defer { printer.stop() }
            let (pages, origin) = try await WebPosClient.servePages()
            defer { pages.stop() }
            let kiosk = try await Kiosk.start(printer, origins: [origin])
            let chromium = HeadlessChromium(profile: kiosk.site.folder + "/chromium-profile")
            let page = "\(origin)/try-webprnt.html?agent=\(kiosk.url)&send=receipt"
            let (dom, errors) = try await chromium.dom(of: page, settling: 20_000)
            #expect(dom.contains("200 success=true code=0 status=2386"), "the page's answer: \(dom.suffix(600)) \(errors.suffix(600))")
            let piece = try #require(try await printer.pieces(atLeast: 1, within: .seconds(30)).first)
            let png = kiosk.site.folder + "/web-page.png"
            try piece.bitmap.writePNG(to: png)
            let read = try BarcodeReader.decode(pngAt: png)
            #expect(read.contains { $0.text == "https://example.com/star/0042" } && read.contains { $0.text == "STAR-0042" }, "\(read)")
            await kiosk.site.stop(kiosk.agent)
        }
    }
}
