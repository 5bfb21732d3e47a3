import BenchSupport
import Foundation
import PrintModel
import PrinterLanguages
import Simulator
import Store

/// `kioskprint-bench raw-listen [--jobs N]`: the raw role printer (issue 30).
/// The same ESC/POS receipt (text, a raster logo, a QR code, a cut: what a
/// POS writes to port 9100) sent to the release agent's raw listener, and
/// straight to the printer it forwards to (the ESC/POS simulator, saved as
/// a TM-T20III): from the client's connect to the last byte at the printer,
/// alternating job by job. And the idle agent's memory with one raw
/// listener on and off. Needs root (the lab).
enum RawListenBench {
    static let defaultJobs = 50
    static let pollInterval = Duration.microseconds(500)

    static func run(jobs: Int, kioskprint: String) async -> Never {
        await BenchReport.run("raw-listen") {
            let lab = try await AgentLab.start(kioskprint: kioskprint)
            defer { lab.stop() }
            let site = lab.site
            let printer = try EscPosPrinterSimulator(configuration: .init(printableWidth: 576, dotsPerInch: 203))
            defer { printer.stop() }
            let profile = try ModelCatalog.profile(model: "TM-T20III")
            _ = try await site.store.assign(uri: printer.uri, serviceName: nil, capabilities: profile.capabilities(name: "Bench raw till"),
                                            to: try Role("till"), as: .primary)
            let base = try String(contentsOfFile: site.configPath, encoding: .utf8) + "\n[http]\nlisten = \"off\"\nsocket = \"off\"\n"
            let port = try Loopback.freePort(), eposPort = try Loopback.freePort(), apiPort = try Loopback.freePort()
            let listening = base + "\n[role.till]\nraw-listen = \"127.0.0.1:\(port)\"\n"
            let template = try EposBench.writeTemplate(into: site.folder.appendingPathComponent("templates"))
            let secret = try await site.store.addToken(name: "bench", scopes: [.admin]).secret

            progress("idle memory, the raw listener off, then on")
            try base.write(toFile: site.configPath, atomically: true, encoding: .utf8)
            let off = try await APIBench.idleFootprint(site)
            try listening.write(toFile: site.configPath, atomically: true, encoding: .utf8)
            let on = try await APIBench.idleFootprint(site)
            progress("idle memory, the role printers' listener serving ePOS-Print and WebPRNT")
            try (base + "\n[ipp]\nlisten = \"127.0.0.1:\(eposPort)\"\n[role.till]\nepos = true\nwebprnt = true\n")
                .write(toFile: site.configPath, atomically: true, encoding: .utf8)
            let web = try await APIBench.idleFootprint(site)

            let receipt = Self.receipt()
            // The measured agent also serves the till over ePOS-Print and the API, for the second section.
            // A rate limit a 2 ms poll stays under.
            try (base.replacingOccurrences(of: "[http]\nlisten = \"off\"", with: "[http]\nrate-limit = 10000\nlisten = \"127.0.0.1:\(apiPort)\"")
                + "\n[ipp]\nlisten = \"127.0.0.1:\(eposPort)\"\n[role.till]\nraw-listen = \"127.0.0.1:\(port)\"\nepos = true\nepos-devid = \"local_printer\"\nwebprnt = true\n")
                .write(toFile: site.configPath, atomically: true, encoding: .utf8)
            let notify = try NotifySocket(receiveTimeout: .seconds(1))
            let agent = try await offloaded { try site.start(notify: notify, log: site.folder.appendingPathComponent("raw-listen.log").path) }.agent
            defer { _ = site.stop(agent) }
            guard let printerPort = printer.port else { throw BenchError("the simulator has no TCP port") }

            progress("\(jobs) receipts of \(receipt.count) bytes, alternating: through the raw listener, straight to the printer")
            var through: [Duration] = [], direct: [Duration] = []
            for round in 0..<(jobs + 3) {
                let viaAgent = try await send(receipt, port: port, printer: printer)
                let straight = try await send(receipt, port: printerPort, printer: printer)
                if round >= 3 { through.append(viaAgent); direct.append(straight) }  // 3 warm-up rounds
            }

            progress("\(jobs) ePOS-Print and WebPRNT receipts answered once printed, alternating with the same receipt as template data")
            var epos: [Duration] = [], webprnt: [Duration] = [], templated: [Duration] = []
            for round in 0..<(jobs + 3) {
                let viaEpos = try await offloaded { try EposBench.post(port: eposPort, order: round) }
                let viaWebPrnt = try await offloaded { try EposBench.postWebPrnt(port: eposPort, order: round) }
                let viaTemplate = try await EposBench.postTemplate(port: apiPort, secret: secret, template: template, order: round)
                if round >= 3 { epos.append(viaEpos); webprnt.append(viaWebPrnt); templated.append(viaTemplate) }
            }

            var table = BenchTable()
            table.section("an ESC/POS receipt (\(receipt.count) bytes: 30 lines, a 576 x 96 logo, a QR code, a cut), connect to its last byte at the printer, \(jobs) each")
            table.add("through the raw role printer, med / p99", RolePrinterBench.pair(Sample(through)),
                      "straight to the printer's port", RolePrinterBench.pair(Sample(direct)),
                      note: "the agent reads to the client's close, commits the job, asks the printer's status, sends, confirms")
            table.section("a receipt of text and a QR code (ePOS-Print, \(EposBench.receipt.utf8.count) bytes), request to printed, \(jobs) each")
            table.add("ePOS-Print, answered once printed, med / p99", RolePrinterBench.pair(Sample(epos)),
                      "the same drawing as template data: POST /v1/jobs, then GET every 2 ms until completed", RolePrinterBench.pair(Sample(templated)),
                      note: "the ePOS request is stored, read and drawn as a template when sent")
            table.add("WebPRNT (\(EposBench.webprntReceipt.utf8.count) bytes), answered once printed, med / p99", RolePrinterBench.pair(Sample(webprnt)),
                      "the same, as template data", RolePrinterBench.pair(Sample(templated)),
                      note: "the <root> is read twice: from the envelope, then as XML of its own")
            table.section("the idle agent (5 s after READY=1)")
            table.add("RSS with one raw listener on / off", APIBench.megabytes(on.rssKiB) + " / " + APIBench.megabytes(off.rssKiB) + " MB",
                      "added by the listener", APIBench.megabytes(on.rssKiB - off.rssKiB) + " MB")
            table.add("RSS serving ePOS-Print and WebPRNT / neither", APIBench.megabytes(web.rssKiB) + " / " + APIBench.megabytes(off.rssKiB) + " MB",
                      "added by their listener", APIBench.megabytes(web.rssKiB - off.rssKiB) + " MB",
                      note: "one HTTP listener (the role printers'), no IPP role: its NIO threads and Hummingbird's router")
            return .init(blocks: [table.render()], legend: "ms = milliseconds, med = median, p99 = 99th percentile, MB = 2^20 bytes")
        }
    }

    /// Connects, writes `bytes`, closes; returns when the printer has received at least as many more bytes.
    static func send(_ bytes: [UInt8], port: Int, printer: EscPosPrinterSimulator) async throws -> Duration {
        let before = printer.bytesReceived
        let started = ContinuousClock.now
        let client = try RawClient(port: port)
        try await client.send(bytes)
        client.finishSending()
        while printer.bytesReceived < before + bytes.count {
            guard ContinuousClock.now - started < .seconds(30) else {
                throw BenchError("the printer received \(printer.bytesReceived - before) of \(bytes.count) bytes in 30 s")
            }
            try await Task.sleep(for: pollInterval)  // the poll's own pace
        }
        let elapsed = ContinuousClock.now - started
        _ = try await client.readUntilClosed()
        return elapsed
    }

    /// What a POS writes for a receipt: ESC @, 30 item lines, a logo as GS v 0, a QR code (GS ( k), a cut.
    static func receipt() -> [UInt8] {
        var bytes: [UInt8] = [0x1B, 0x40]
        let logo = (0..<96).flatMap { row in (0..<72).map { column in UInt8((row / 8 + column) % 3 == 0 ? 0xFF : 0x00) } }
        bytes += EscPosCommand.rasterBand(bytesPerRow: 72, rows: 96, data: logo[...])
        for item in 1...30 { bytes += Array(String(format: "Item %02d %@ %8.2f\n", item, String(repeating: ".", count: 24), Double(item) * 1.25).utf8) }
        let qr = Array("https://example.com/r/4711".utf8)
        bytes += [0x1D, 0x28, 0x6B, 0x03, 0x00, 0x31, 0x43, 0x06]
        bytes += [0x1D, 0x28, 0x6B, UInt8((qr.count + 3) & 0xFF), UInt8((qr.count + 3) >> 8), 0x31, 0x50, 0x30] + qr
        bytes += [0x1D, 0x28, 0x6B, 0x03, 0x00, 0x31, 0x51, 0x30]
        bytes += [0x1D, 0x56, 0x42, 0x00]
        return bytes
    }
}
