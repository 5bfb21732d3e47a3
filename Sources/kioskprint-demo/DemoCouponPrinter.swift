import CommandLineOutput
import Foundation
import PrintModel
import PrinterLanguages
import Simulator
import Store

/// The demo's coupon printer: an Epson TM-T20III on raw TCP, as a shop's
/// second receipt printer often is. It is an ESC/POS simulator on 127.0.0.1,
/// saved for the role `coupon` with the capabilities the model catalog gives
/// (a raw printer answers no Get-Printer-Attributes). The agent prints the
/// coupon dropped into `coupons/` to it in ESC/POS; the demo then shows the
/// pieces the simulator cut as PNGs and checks them against the job.
struct DemoCouponPrinter {
    static let model = "TM-T20III"
    static let name = "Demo Coupon TM-T20III"
    static let role = "coupon"

    let simulator: EscPosPrinterSimulator
    let profile: RawProfile

    /// Starts the simulator with the catalog model's head: its printable dots and resolution.
    static func start() throws -> DemoCouponPrinter {
        let profile: RawProfile
        do { profile = try ModelCatalog.profile(model: model) } catch {
            throw demoFailure("the model catalog has no \(model): \(error)")
        }
        let head = EscPosPrinterSimulator.Configuration(printableWidth: profile.printableDots, dotsPerInch: profile.dpi)
        return DemoCouponPrinter(simulator: try EscPosPrinterSimulator(configuration: head), profile: profile)
    }

    /// Saves the printer for the role `coupon`, as `printers add URI --role coupon --model TM-T20III` does.
    func save(databasePath: String) async throws {
        print("\n$ kioskprint printers add \(simulator.uri) --role \(Self.role) --model \(Self.model)")
        let store = try KioskStore(path: databasePath)
        let outcome = try await store.assign(uri: simulator.uri, serviceName: nil,
                                             capabilities: profile.capabilities(name: Self.name),
                                             to: try Role(Self.role), as: .primary)
        let saved = outcome.assignment
        print("Saved \(saved.printer.name) (\(saved.printer.uri)) as the \(saved.rank) printer for the role '\(saved.role)': "
            + "\(profile.makeAndModel) from the catalog, \(profile.printableDots) dots at \(profile.dpi) dpi across a "
            + "\(profile.paperWidth.millimetreFigure) mm roll, ESC/POS over raw TCP.")
    }

    /// What the printer received for the demo's coupon job.
    struct Received {
        /// The preview table's row: printer, job name, format, size, pieces, PNG.
        var row: [String]
        /// The sentence under the table: bytes, the cut, the status requests.
        var line: String
        var job: PrintJob
    }

    /// Writes each piece the simulator cut as a PNG into `folder` and checks
    /// them against the coupon job the agent reported completed: as many
    /// pieces as it planned, each as long as its planned cut to the dot (the
    /// page is drawn at the stated dpi), and nothing the simulator found wrong
    /// in the stream. A failure names the printer and what differed.
    func received(_ jobs: [PrintJob], folder: String) throws -> Received {
        let what = "\(Self.name) (\(simulator.uri))"
        guard let job = jobs.first(where: { $0.role.name == Self.role }) else {
            throw demoFailure("no job for the role '\(Self.role)' was queued, so \(what) had nothing to print.")
        }
        var record = simulator.record
        guard !record.pieces.isEmpty else {
            throw demoFailure("\(what) received \(record.bytesReceived) bytes but cut no piece of paper, though the agent "
                + "reported job \(job.id) \"\(job.name)\" \(job.state).")
        }
        if !record.problems.isEmpty {
            throw demoFailure("\(what) found the ESC/POS stream wrong: \(record.problems.joined(separator: "; ")).")
        }
        let planned = (job.cutLengths ?? []).map { Length(hundredthsOfMillimetre: $0).dots(at: profile.dpi) }
        // The coupon's pieces come first: the till's raw job is sent after every other job has ended.
        record.pieces = Array(record.pieces.prefix(planned.count))
        let measured = record.pieces.map(\.lengthInDots)
        guard measured == planned else {
            throw demoFailure("\(what) cut pieces of \(measured.map(String.init).joined(separator: ", ")) dots, but job "
                + "\(job.id) planned \(planned.map(String.init).joined(separator: ", ")) (cut lengths "
                + "\((job.cutLengths ?? []).map(String.init).joined(separator: ", ")) hundredths of a mm at \(profile.dpi) dpi).")
        }

        var pngs: [String] = []
        for (index, piece) in record.pieces.enumerated() {
            let png = "\(folder)/\(ReceivedPreviews.slug(Self.name))-\(index + 1).png"
            try piece.bitmap.writePNG(to: png)
            pngs.append(png)
        }
        let cuts = zip(record.pieces, job.cutLengths ?? []).map { piece, cut in
            "\(piece.cut.map { $0.kind == .full ? "full" : "partial" } ?? "no") cut at \(Self.millimetres(cut)) mm "
                + "(\(piece.lengthInDots) dots, as planned)"
        }
        let size = (job.cutLengths?.max()).map { "\(profile.paperWidth.millimetreFigure) x \(Self.millimetres($0)) mm" } ?? "-"
        let line = "\(Self.name) received \(record.bytesReceived) bytes of ESC/POS over raw TCP "
            + "(\(record.connections) connection(s), \(record.statusQueries.count) status request(s) answered): "
            + "\(record.pieces.count) piece(s), " + cuts.joined(separator: ", ") + "."
        return Received(row: [Self.name, job.name, "ESC/POS", size + " (cut)", "\(record.pieces.count)",
                              pngs.joined(separator: ", ")],
                        line: line, job: job)
    }

    private static func millimetres(_ hundredths: Int) -> String {
        String(format: "%.2f", Double(hundredths) / 100)
    }
}
