import BenchSupport
import Foundation
import IPP
import PrintModel
import Simulator
import Store

/// `kioskprint-bench ipp [--jobs N]`: the role printers of the release
/// agent (issue 29). Print-Job of the same one-page receipt, drawn by
/// Ghostscript as PWG raster at the printer's 203 dpi (what CUPS sends),
/// from the request to the job completed at the printer: through the
/// receipt role printer to its recording printer, beside Print-Job straight
/// to that ippeveprinter; the same for a 4x6 label through the label role,
/// beside LPrint 1.1.0's label printer. Get-Printer-Attributes to the role
/// printer beside ippeveprinter. The idle agent's memory with the role
/// printers on and off. Every client is libcups (`PrinterJobs`,
/// `PrinterContact`), the same on both sides. Needs root (the lab).
enum RolePrinterBench {
    static let defaultJobs = 50
    static let pollInterval = Duration.milliseconds(2)

    static func run(jobs: Int, kioskprint: String) async -> Never {
        await BenchReport.run("ipp") {
            let lab = try await AgentLab.start(kioskprint: kioskprint)
            defer { lab.stop() }
            let site = lab.site
            let base = try String(contentsOfFile: site.configPath, encoding: .utf8) + "\n[http]\nlisten = \"off\"\nsocket = \"off\"\n"
            let port = try Loopback.freePort()
            let printers = base + "\n[ipp]\nlisten = \"127.0.0.1:\(port)\"\n[role.receipt]\nipp-printer = true\n[role.label]\nipp-printer = true\n"

            progress("idle memory, role printers off, then on")
            try base.write(toFile: site.configPath, atomically: true, encoding: .utf8)
            let off = try await APIBench.idleFootprint(site)
            try printers.write(toFile: site.configPath, atomically: true, encoding: .utf8)
            let on = try await APIBench.idleFootprint(site)

            let receipt = try rasterDocument(for: try await capabilities(of: "receipt", site), name: "receipt", folder: site.folder)
            let label = try labelDocument(folder: site.folder)
            let notify = try NotifySocket(receiveTimeout: .seconds(1))
            let agent = try await offloaded { try site.start(notify: notify, log: site.folder.appendingPathComponent("ipp-agent.log").path) }.agent
            defer { _ = site.stop(agent) }
            let rolePrinter = { (role: String) in "ipp://127.0.0.1:\(port)/ipp/print/\(role)" }

            progress("Print-Job, \(jobs) receipts through the role printer, then \(jobs) straight to ippeveprinter")
            let throughRole = try await printJobs(receipt, to: rolePrinter("receipt"), count: jobs)
            let direct = try await printJobs(receipt, to: lab.receipt.uri, count: jobs)
            progress("Print-Job, \(jobs) labels through the label role printer, then to LPrint")
            let labelRole = try await printJobs(label, to: rolePrinter("label"), count: jobs)
            var lprint: Result<Sample, BenchError>
            do {
                let server = try await LPrintServer.start()
                defer { server.stop() }
                lprint = .success(try await printJobs(label, to: server.uri, count: jobs))
            } catch {
                lprint = .failure(error as? BenchError ?? BenchError("\(error)"))
            }
            progress("Get-Printer-Attributes, \(jobs * 4) to each")
            let roleAttributes = try await attributes(rolePrinter("receipt"), count: jobs * 4)
            let printerAttributes = try await attributes(lab.receipt.uri, count: jobs * 4)

            var table = BenchTable()
            table.section("Print-Job of a one-page receipt (PWG raster, 203 dpi, \(receipt.bytes) bytes), request sent to completed at the printer, \(jobs) each")
            table.add("through the receipt role printer, med / p99", pair(throughRole), "Print-Job straight to the same ippeveprinter", pair(direct),
                      note: "the role printer reads the raster, queues the job (committed to disk), draws it again for the printer and sends it")
            switch lprint {
            case .success(let sample):
                table.add("a 4x6 label through the label role printer, med / p99", pair(labelRole), "LPrint 1.1.0, its ZPL label printer", pair(sample))
            case .failure(let error):
                table.add("a 4x6 label through the label role printer, med / p99", pair(labelRole), "LPrint 1.1.0", "not measured: \(error)")
            }
            table.section("Get-Printer-Attributes (all), \(jobs * 4) each, one after another")
            table.add("the receipt role printer, med / p99", pair(roleAttributes), "ippeveprinter", pair(printerAttributes))
            table.section("the idle agent (5 s after READY=1)")
            table.add("RSS with two role printers on / off", APIBench.megabytes(on.rssKiB) + " / " + APIBench.megabytes(off.rssKiB) + " MB",
                      "added by the role printers", APIBench.megabytes(on.rssKiB - off.rssKiB) + " MB", note: "target: under 3 MB")
            return .init(blocks: [table.render()], legend: "ms = milliseconds, med = median, p99 = 99th percentile, MB = 2^20 bytes")
        }
    }

    static func pair(_ sample: Sample) -> String {
        Millis.text(sample.median) + " / " + Millis.text(sample.percentile(0.99))
    }

    static func capabilities(of role: String, _ site: AgentSite) async throws -> PrinterCapabilities {
        guard let printer = try await site.store.assignments(for: try Role(role)).first?.printer else {
            throw BenchError("the lab's site has no printer under the role \(role)")
        }
        return printer.capabilities
    }

    /// The role's receipt (or a 4x6 page) as CUPS would send it: the PDF
    /// drawn for the printer, made PWG raster (black_1) at 203 dpi by Ghostscript.
    static func rasterDocument(for capabilities: PrinterCapabilities, name: String, folder: URL) throws -> (data: Data, bytes: Int) {
        let pdf = try ReceiptPDF.draw(for: capabilities, folder: folder, name: "\(name).pdf")
        let output = folder.appendingPathComponent("\(name).pwg").path
        let gs = try Subprocess.run(try ProgramPath.find("gs"), ["-q", "-sDEVICE=pwgraster", "-r203", "-dcupsColorSpace=3",
                                                                 "-dcupsBitsPerColor=1", "-o", output, pdf.path])
        guard gs.status == 0 else { throw BenchError("gs could not make \(name).pwg: \(gs.errors)") }
        let data = try Data(contentsOf: URL(fileURLWithPath: output))
        return (data, data.count)
    }

    /// A 4x6 in shipping label as a client would draw it: PWG raster (black_1) at 203 dpi, by Ghostscript.
    static func labelDocument(folder: URL) throws -> (data: Data, bytes: Int) {
        let output = folder.appendingPathComponent("label.pwg").path
        let gs = try Subprocess.run(try ProgramPath.find("gs"), [
            "-q", "-sDEVICE=pwgraster", "-r203", "-dDEVICEWIDTHPOINTS=288", "-dDEVICEHEIGHTPOINTS=432", "-dFIXEDMEDIA",
            "-dcupsColorSpace=3", "-dcupsBitsPerColor=1", "-o", output, "-c",
            "/Helvetica-Bold findfont 28 scalefont setfont 24 380 moveto (SHIP TO) show /Helvetica findfont 18 scalefont setfont "
                + "24 340 moveto (Jane Doe, 1 Main Street) show 24 316 moveto (12345 Springfield) show 4 setlinewidth "
                + "18 18 252 396 rectstroke 0 1 39 { 5 mul 36 add 60 exch 120 3 exch rectfill } for showpage",
        ])
        guard gs.status == 0 else { throw BenchError("gs could not make label.pwg: \(gs.errors)") }
        let data = try Data(contentsOf: URL(fileURLWithPath: output))
        return (data, data.count)
    }

    /// Each job sent with Print-Job and followed with Get-Job-Attributes
    /// every 2 ms until the printer calls it completed.
    static func printJobs(_ document: (data: Data, bytes: Int), to uri: String, count: Int) async throws -> Sample {
        let request = PrintJobRequest(document: document.data, documentFormat: "image/pwg-raster", jobName: "bench receipt")
        var timings: [Duration] = []
        for _ in 0..<count {
            let started = ContinuousClock.now
            let job: SubmittedJob
            do { job = try await PrinterJobs.submit(request, to: uri) } catch {
                throw BenchError("Print-Job to \(uri) failed: \(error)")
            }
            var state = job.state
            while !state.isTerminal {
                try await Task.sleep(for: pollInterval)  // the poll's own pace, as a client polls
                state = (try? await PrinterJobs.status(of: job.id, at: uri))?.state ?? state
            }
            guard state == .completed else { throw BenchError("job \(job.id) at \(uri) ended \(state)") }
            timings.append(ContinuousClock.now - started)
        }
        return Sample(timings)
    }

    static func attributes(_ uri: String, count: Int) async throws -> Sample {
        var timings: [Duration] = []
        for _ in 0..<count {
            let started = ContinuousClock.now
            do { _ = try await PrinterContact.printerAttributes(uri: uri) } catch {
                throw BenchError("Get-Printer-Attributes to \(uri) failed: \(error)")
            }
            timings.append(ContinuousClock.now - started)
        }
        return Sample(timings)
    }
}
