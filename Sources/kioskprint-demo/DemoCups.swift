import Foundation
import PrintModel
import Rendering
import Simulator
import Store
import Templates

/// The demo's CUPS step: the receipt role as every Linux program reaches a
/// printer. A private cupsd (its own folder and loopback port, the
/// machine's CUPS untouched) adds the role printer with
/// `lpadmin -m everywhere`, and `lp` prints a PDF receipt to it, the way a
/// browser in kiosk mode or an office program would.
enum DemoCups {
    /// Prints the receipt through CUPS; false (with a line saying why) when cupsd cannot run here.
    static func printReceipt(agent: DemoAgentProcess, store: KioskStore, folder: String) async throws -> Bool {
        let marker = "Role printers (receipt) listening on "
        guard let line = agent.logText.split(separator: "\n").first(where: { $0.contains(marker) }),
              let base = line.components(separatedBy: marker).last?.components(separatedBy: "/ipp/print/").first else {
            print("\nThe receipt role printer is not listening (see the agent's log); the demo skips CUPS.")
            return false
        }
        let uri = "\(base)/ipp/print/receipt"
        let cups: PrivateCups
        do { cups = try await PrivateCups.start() } catch {
            print("\nNo private cupsd (\(error)); the demo skips CUPS.")
            return false
        }
        defer { cups.stop() }
        print("\nA program prints through CUPS to the receipt role printer:")
        print("$ lpadmin -p receipt -E -v \(uri) -m everywhere")
        guard case .ready = try await DriverlessQueue.add("receipt", uri: uri, on: cups) else {
            throw demoFailure("CUPS made no driverless queue for \(uri); its log: \(cups.errorLog.suffix(600))")
        }
        let pdf = try await receiptPDF(store: store, folder: folder)
        print("$ lp -d receipt -o PageSize=Custom.\(pdf.size) receipt.pdf")
        let lp = try Subprocess.run(try ProgramPath.find("lp"), ["-h", cups.server, "-d", "receipt", "-o", "PageSize=Custom.\(pdf.size)",
                                                                 pdf.path])
        guard lp.status == 0 else { throw demoFailure("lp failed: \(lp.output)\(lp.errors)") }
        print(lp.output.trimmingCharacters(in: .whitespacesAndNewlines))
        // cupsd converts the PDF and sends it on by itself; the agent's queue shows when it has.
        try await agent.wait(for: "CUPS's job to reach the receipt role and end", within: .seconds(60)) {
            try await store.jobs(includeFinished: true).contains { $0.name == "receipt.pdf" && $0.state.isTerminal }
        }
        return true
    }

    /// The built-in receipt drawn as a PDF for the receipt printer: 80 mm wide, as long as its content.
    private static func receiptPDF(store: KioskStore, folder: String) async throws -> (path: String, size: String) {
        let source = try TemplateCatalog().find("receipt")
        guard let data = source.sampleData else { throw demoFailure("the built-in receipt has no sample data.") }
        let job = try TemplateJob(source: source, dataJSON: Data(data.utf8), dataFile: "receipt.sample.json")
        guard let printer = try await store.assignments(for: try Role("receipt")).first?.printer.capabilities else {
            throw demoFailure("no printer holds the role receipt.")
        }
        let media = try MediaSelection.media(for: job.document.page, on: printer)
        let pdf = try job.renderPDF(on: media)
        let path = folder + "/receipt.pdf"
        try pdf.data.write(to: URL(fileURLWithPath: path))
        let width = media.mediaWidth.millimetreFigure
        guard let length = pdf.pageLengths.first?.millimetreFigure else { throw demoFailure("the receipt PDF has no page.") }
        return (path, "\(width)x\(length)mm")
    }
}
