import Foundation
import Simulator
import Testing

/// A role held by a raw ESC/POS receipt printer (the simulator, which
/// decodes what it is sent), served as an IPP printer: CUPS prints a PDF
/// receipt on it at the head's 576 dots, cut at the page's length, and
/// ipptool's job files that send a ticket (media-col, Validate-Job) pass.
extension AgentEndToEnd {
    @Suite(.timeLimit(.minutes(4))) struct RolePrinterRawTests {
        @Test func cupsPrintsAPDFReceiptOnTheESCPOSPrinterAtItsDotsCutAtThePageLength() async throws {
            let printer = try EscPosPrinterSimulator(configuration: .init(printableWidth: 576, dotsPerInch: 203))
            defer { printer.stop() }
            let site = try AgentHarness(lab: try await PrinterLab.shared())
            let port = try Loopback.freePort()
            try site.writeConfiguration("[ipp]\nlisten = \"127.0.0.1:\(port)\"\n[role.receipt]\nipp-printer = true\n")
            let added = try await site.runner.run(["printers", "add", printer.uri, "--role", "receipt", "--model", "TM-T20III"])
            #expect(added.status == 0, "\(added.output)\(added.errors)")
            let agent = try await site.start()
            let uri = "ipp://127.0.0.1:\(port)/ipp/print/receipt"

            let cups = try await PrivateCups.start()
            defer { cups.stop() }
            let setup = try await DriverlessQueue.add("till", uri: uri, on: cups)
            #expect(setup == .ready, "lpadmin -m everywhere: \(setup)")
            let pdf = try RolePrinterKiosk.receiptPDF(in: site.folder, lengthMillimetres: 120)
            let lp = try Subprocess.run(try ProgramPath.find("lp"), ["-h", cups.server, "-d", "till", "-o", "PageSize=Custom.80x120mm", pdf])
            #expect(lp.status == 0, "\(lp.output)\(lp.errors)")
            let piece = try #require(try await printer.pieces(atLeast: 1, within: .seconds(60)).first)
            #expect(piece.bitmap.width == 576, "the head's dots, margins cropped")
            #expect(abs(piece.lengthInDots - Int(120 / 25.4 * 203)) <= 3, "cut at the page's 120 mm: \(piece.lengthInDots) dots")
            let inked = (0..<piece.lengthInDots).contains { y in (0..<576).contains { piece.bitmap[$0, y] } }
            #expect(inked, "the receipt's text reached the paper")

            // ipptool's files that send a job ticket, with a JPEG: media-col (a 4x6 the roll cannot take is left out) and Validate-Job.
            let files = try ConformanceFiles.make(in: try site.makeFolder("conformance"), sampleDPI: nil)
            for file in ["print-job-media-col.test", "validate-job.test", "identify-printer.test"] {
                let tally = try IpptoolTally.run(uri: uri, file: "/usr/share/cups/ipptool/" + file, document: files.jpeg)
                #expect(tally.failed.isEmpty && !tally.passed.isEmpty, "\(file): \(tally.output.suffix(2000))")
            }
            _ = try await printer.pieces(atLeast: 2, within: .seconds(60))
            // The answer comes once the buzzer command is written; the simulator reads it on its own thread.
            let beeped = try await printer.record("Identify-Printer's beep", within: .seconds(30)) { !$0.beeps.isEmpty }
            #expect(!beeped.beeps.isEmpty, "Identify-Printer beeped the receipt printer")
            await site.stop(agent)
        }
    }
}
