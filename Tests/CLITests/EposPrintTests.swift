import Foundation
import Simulator
import Testing

/// A role served as an Epson ePOS-Print device (`epos = true`), posted to
/// with curl as a web POS posts: Odoo's request (an image and a cut), a
/// receipt in text, a barcode and a QR code, an empty status request, the
/// drawer, and the refusals. The role's printer is the ESC/POS simulator,
/// which decodes what it receives.
extension AgentEndToEnd {
    @Suite(.timeLimit(.minutes(4))) struct EposPrintTests {
        static let namespace = "http://www.epson-pos.com/schemas/2011/03/epos-print"

        static func envelope(_ body: String) -> String {
            #"<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body><epos-print xmlns="\#(namespace)">"#
                + body + "</epos-print></s:Body></s:Envelope>"
        }

        /// A kiosk whose receipt role is the ESC/POS simulator, served over ePOS-Print as `local_printer`.
        struct Kiosk {
            let site: AgentHarness
            let agent: Spawned
            let port: Int
            var url: String { "http://127.0.0.1:\(port)/cgi-bin/epos/service.cgi" }

            static func start(_ printer: EscPosPrinterSimulator, origins: [String] = ["https://pos.example.com"],
                              extra: String = "") async throws -> Kiosk {
                let site = try AgentHarness(lab: try await PrinterLab.shared())
                let port = try Loopback.freePort()
                try site.writeConfiguration("""
                    [ipp]
                    listen = "127.0.0.1:\(port)"
                    [epos]
                    origins = [\(origins.map { "\"\($0)\"" }.joined(separator: ", "))]
                    [role.receipt]
                    epos = true
                    epos-devid = "local_printer"
                    \(extra)
                    """)
                let added = try await site.runner.run(["printers", "add", printer.uri, "--role", "receipt", "--model", "TM-T20III"])
                #expect(added.status == 0, "\(added.output)\(added.errors)")
                return Kiosk(site: site, agent: try await site.start(), port: port)
            }

            /// POSTs `body` with curl as Odoo does (text/plain, no other header); returns the status line, headers and body.
            func post(_ body: String, query: String = "devid=local_printer", headers: [String] = []) throws -> Subprocess.Output {
                let file = site.folder + "/epos-\(UUID().uuidString.prefix(6)).xml"
                try Data(body.utf8).write(to: URL(fileURLWithPath: file))
                return try Subprocess.run("/usr/bin/curl", ["-s", "-i", "-H", "Content-Type: text/plain;charset=UTF-8"]
                    + headers.flatMap { ["-H", $0] } + ["--data-binary", "@" + file, url + "?" + query], limit: .seconds(90))
            }
        }

        /// A response attribute, as Odoo reads it (`getAttribute`).
        static func attribute(_ name: String, in output: String) -> String? {
            output.firstMatch(of: try! Regex(#"\#(name)="([^"]*)""#)).flatMap { $0.output[1].substring.map(String.init) }
        }

        /// Odoo's receipt: the page drawn on a canvas, sent as a 1-bit image, then a cut.
        @Test func odoosImageReceiptPrintsDotForDotAndIsAnsweredOnceItHasPrinted() async throws {
            let printer = try EscPosPrinterSimulator()
            defer { printer.stop() }
            let kiosk = try await Kiosk.start(printer)
            let (width, height) = (256, 256)
            var bits = [UInt8](repeating: 0, count: width / 8 * height)
            for y in 0..<height { for x in 0..<width where (x / 8 + y / 8) % 2 == 0 || y == 0 { bits[y * width / 8 + x / 8] |= 0x80 >> UInt8(x % 8) } }
            let body = Self.envelope(#"<image width="\#(width)" height="\#(height)" align="center">\#(Data(bits).base64EncodedString())</image><cut type="feed"/>"#)
            let answer = try kiosk.post(body)
            #expect(answer.output.hasPrefix("HTTP/1.1 200"), "\(answer.output)")
            #expect(Self.attribute("success", in: answer.output) == "true", "\(answer.output)")
            let status = UInt32(Self.attribute("status", in: answer.output) ?? "") ?? 0
            #expect(status & 0x2 != 0, "ASB_PRINT_SUCCESS: \(status)")
            let piece = try #require(try await printer.pieces(atLeast: 1, within: .seconds(30)).first)
            // Centred on the 576-dot head: the image lands at (576 - 256) / 2, dot for dot.
            let (top, differing) = WebPosClient.compare(bits, width: width, height: height, on: piece.bitmap)
            #expect(top >= 0 && differing == 0, "the image dot for dot, centred: \(differing) dots differ")
            #expect(piece.lengthInDots == height, "cut where the image ends: \(piece.lengthInDots) dots")
            await kiosk.site.stop(kiosk.agent)
        }

        /// Text, a Code 128 barcode and a QR code, as Epson's SDK writes them: each decodes from the paper.
        @Test func textABarcodeAndAQRCodePrintAndDecode() async throws {
            let printer = try EscPosPrinterSimulator()
            defer { printer.stop() }
            let kiosk = try await Kiosk.start(printer)
            let body = Self.envelope(#"""
                <text lang="en" smooth="true"/><text align="center"/><text dw="true" dh="true">KIOSKPRINT&#10;</text>\#
                <text dw="false" dh="false"/><text align="left">Coffee            2.50&#10;Cake              3.20&#10;</text>\#
                <text em="true">TOTAL             5.70&#10;</text><feed line="1"/>\#
                <barcode type="code128" hri="below" width="2" height="60" align="center">{BNo.4711-0042</barcode>\#
                <feed unit="12"/><symbol type="qrcode_model_2" level="level_m" width="6" align="center">https://example.com/r/4711</symbol>\#
                <cut type="feed"/>
                """#)
            let answer = try kiosk.post(body)
            #expect(Self.attribute("success", in: answer.output) == "true", "\(answer.output)")
            let piece = try #require(try await printer.pieces(atLeast: 1, within: .seconds(30)).first)
            let png = kiosk.site.folder + "/epos-receipt.png"
            try piece.bitmap.writePNG(to: png)
            let read = try BarcodeReader.decode(pngAt: png)
            #expect(read.contains { $0.text == "No.4711-0042" }, "the Code 128 decodes: \(read)")
            #expect(read.contains { $0.text == "https://example.com/r/4711" }, "the QR code decodes: \(read)")
            await kiosk.site.stop(kiosk.agent)
        }

        /// The same request sent again (its answer was lost) prints once; an empty
        /// request asks the status; the drawer opens alone.
        @Test func aResentRequestPrintsOnceAndStatusAndDrawerAreAnswered() async throws {
            let printer = try EscPosPrinterSimulator()
            defer { printer.stop() }
            let kiosk = try await Kiosk.start(printer)
            let body = Self.envelope(#"<text>ONCE&#10;</text><cut/>"#)
            #expect(Self.attribute("success", in: try kiosk.post(body).output) == "true")
            #expect(Self.attribute("success", in: try kiosk.post(body).output) == "true", "the second answer is the first job's")
            #expect(try await kiosk.site.jobStates() == ["completed"], "one job for two identical requests")

            let asked = try kiosk.post(Self.envelope(""))
            #expect(Self.attribute("success", in: asked.output) == "true" && Self.attribute("status", in: asked.output) != "0", "\(asked.output)")
            let drawer = try kiosk.post(Self.envelope("<pulse/>"))
            #expect(Self.attribute("success", in: drawer.output) == "true", "\(drawer.output)")
            let pulses = try await printer.record("the drawer pulse", within: .seconds(10)) { !$0.drawerPulses.isEmpty }.drawerPulses
            #expect(pulses.first?.pin == 2, "drawer_1 is pin 2: \(pulses)")
            #expect(try await kiosk.site.jobStates().count == 1, "neither asked for a job")
            await kiosk.site.stop(kiosk.agent)
        }

        /// Out of paper: `success="false"`, `EPTR_REC_EMPTY`, the paper-end bit,
        /// and the job cancelled, so the POS's retry is the only print.
        @Test func aPaperOutPrinterAnswersRecEmptyAndTheJobIsCancelled() async throws {
            let printer = try EscPosPrinterSimulator()
            defer { printer.stop() }
            let kiosk = try await Kiosk.start(printer)
            printer.update { $0.paperOut = true }
            let answer = try kiosk.post(Self.envelope(#"<text>NO PAPER&#10;</text><cut/>"#), query: "devid=local_printer&timeout=3000")
            #expect(Self.attribute("success", in: answer.output) == "false", "\(answer.output)")
            #expect(Self.attribute("code", in: answer.output) == "EPTR_REC_EMPTY", "\(answer.output)")
            let status = UInt32(Self.attribute("status", in: answer.output) ?? "") ?? 0
            #expect(status & 0x80000 != 0, "ASB_RECEIPT_END: \(status)")
            #expect(try await kiosk.site.jobStates() == ["canceled"])
            await kiosk.site.stop(kiosk.agent)
        }

        /// kiosk-config/web-pos/try-epos.html, served from an allowed origin and
        /// run in headless Chromium: its fetch() prints the receipt, and the page shows success.
        @Test func theWebPageInKioskConfigPrintsFromChromium() async throws {
            let printer = try EscPosPrinterSimulator()
            defer { printer.stop() }
            let (pages, origin) = try await WebPosClient.servePages()
            defer { pages.stop() }
            let kiosk = try await Kiosk.start(printer, origins: [origin])
            let chromium = HeadlessChromium(profile: kiosk.site.folder + "/chromium-profile")
            let page = "\(origin)/try-epos.html?agent=\(kiosk.url)&devid=local_printer&send=receipt"
            let (dom, errors) = try await chromium.dom(of: page, settling: 20_000)
            #expect(dom.contains("200 success=true code="), "the page's answer: \(dom.suffix(600)) \(errors.suffix(600))")
            let piece = try #require(try await printer.pieces(atLeast: 1, within: .seconds(30)).first)
            let png = kiosk.site.folder + "/web-page.png"
            try piece.bitmap.writePNG(to: png)
            #expect(try BarcodeReader.decode(pngAt: png).contains { $0.text == "https://example.com/web/0042" })
            await kiosk.site.stop(kiosk.agent)
        }

        /// Refusals, each with what to change: an unknown devid, page mode, another
        /// origin (before anything is queued), and the preflight of an allowed one.
        @Test func refusalsSayWhatToChange() async throws {
            let printer = try EscPosPrinterSimulator()
            defer { printer.stop() }
            let kiosk = try await Kiosk.start(printer)
            let unknown = try kiosk.post(Self.envelope(""), query: "devid=kitchen")
            #expect(Self.attribute("code", in: unknown.output) == "DeviceNotFound", "\(unknown.output)")
            let page = try kiosk.post(Self.envelope(#"<page><text>X</text></page>"#))
            #expect(Self.attribute("code", in: page.output) == "SchemaError", "\(page.output)")
            #expect(page.output.contains("X-KioskPrint-Problem: <page> (page mode) is not drawn by KioskPrint yet"), "\(page.output)")
            let stranger = try kiosk.post(Self.envelope(#"<text>EVIL&#10;</text>"#), headers: ["Origin: https://evil.example"])
            #expect(stranger.output.hasPrefix("HTTP/1.1 403") && stranger.output.contains("origins"), "\(stranger.output)")
            let preflight = try WebPosClient.preflight(kiosk.url, origin: "https://pos.example.com", requestHeaders: "content-type, soapaction")
            #expect(preflight.output.hasPrefix("HTTP/1.1 204"), "\(preflight.output)")
            for header in ["access-control-allow-origin: https://pos.example.com", "access-control-allow-private-network: true",
                           "access-control-allow-headers: content-type, soapaction, if-modified-since"] {
                #expect(preflight.output.lowercased().contains(header), "\(header) in \(preflight.output)")
            }
            #expect(try await kiosk.site.jobStates().isEmpty, "nothing refused was queued")
            let status = try await kiosk.site.runner.run(["status"])
            #expect(status.output.contains("ePOS-Print (devid local_printer) at \(kiosk.url)"), "\(status.output)")
            await kiosk.site.stop(kiosk.agent)
        }
    }
}
