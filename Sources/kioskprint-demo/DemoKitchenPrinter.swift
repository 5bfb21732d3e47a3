import CommandLineOutput
import Foundation
import PrintModel
import PrinterLanguages
import Simulator
import Store

/// The demo's kitchen printer: a Star TSP143III on raw TCP, the printer most
/// iPad tills were sold with. It speaks only Star Graphic mode, so it is a
/// Star simulator (written from Star's specifications), saved for the role
/// `kitchen` with the catalog's TSP143 profile. A web POS on Star's WebPRNT
/// SDK prints to it through the agent; the demo then shows what it cut as a
/// PNG and checks it against the job.
struct DemoKitchenPrinter {
    static let model = "TSP143"
    static let name = "Demo Kitchen TSP143III"
    static let role = "kitchen"

    let simulator: StarPrinterSimulator
    let profile: RawProfile

    static func start() throws -> DemoKitchenPrinter {
        let profile: RawProfile
        do { profile = try ModelCatalog.profile(model: model) } catch {
            throw demoFailure("the model catalog has no \(model): \(error)")
        }
        let head = StarPrinterSimulator.Configuration(emulation: profile.language, printableWidth: profile.printableDots)
        return DemoKitchenPrinter(simulator: try StarPrinterSimulator(configuration: head), profile: profile)
    }

    /// Saves the printer for the role `kitchen`, as `printers add URI --role kitchen --model TSP143` does.
    func save(databasePath: String) async throws {
        print("\n$ kioskprint printers add \(simulator.uri) --role \(Self.role) --model \(Self.model)")
        let store = try KioskStore(path: databasePath)
        let saved = try await store.assign(uri: simulator.uri, serviceName: nil, capabilities: profile.capabilities(name: Self.name),
                                           to: try Role(Self.role), as: .primary).assignment
        print("Saved \(saved.printer.name) (\(saved.printer.uri)) as the \(saved.rank) printer for the role '\(saved.role)': "
            + "\(profile.makeAndModel) from the catalog, \(profile.printableDots) dots at \(profile.dpi) dpi, "
            + "\(profile.language) over raw TCP.")
    }

    /// Writes the pieces the simulator cut as PNGs and checks them against
    /// the role's job: as many pieces as planned, each as long as its planned
    /// cut to the dot, and nothing the simulator found wrong in the stream.
    func received(_ jobs: [PrintJob], folder: String) throws -> DemoCouponPrinter.Received? {
        let what = "\(Self.name) (\(simulator.uri))"
        guard let job = jobs.first(where: { $0.role.name == Self.role }) else { return nil }
        let record = simulator.record
        if !record.problems.isEmpty || !record.unknownCommands.isEmpty {
            throw demoFailure("\(what) found the \(profile.language) stream wrong: \(record.problems.joined(separator: "; ")) "
                + "\(record.unknownCommands.count) unknown command(s).")
        }
        let planned = (job.cutLengths ?? []).map { Length(hundredthsOfMillimetre: $0).dots(at: profile.dpi) }
        let measured = record.pieces.map(\.lengthInDots)
        guard !planned.isEmpty, measured == planned else {
            throw demoFailure("\(what) cut pieces of \(measured.map(String.init).joined(separator: ", ")) dots, but job "
                + "\(job.id) \"\(job.name)\" planned \(planned.map(String.init).joined(separator: ", ")).")
        }
        var pngs: [String] = []
        for (index, piece) in record.pieces.enumerated() {
            let png = "\(folder)/\(ReceivedPreviews.slug(Self.name))-\(index + 1).png"
            try piece.bitmap.writePNG(to: png)
            pngs.append(png)
        }
        let size = (job.cutLengths?.max()).map { "\(profile.paperWidth.millimetreFigure) x \(String(format: "%.2f", Double($0) / 100)) mm" } ?? "-"
        let line = "\(Self.name) received \(record.bytesReceived) bytes of \(profile.language) over raw TCP "
            + "(\(record.statusRequests) automatic status(es) asked with ESC ACK SOH): \(record.pieces.count) piece(s), "
            + record.pieces.map { "\($0.cut.map { "\($0.kind)" } ?? "no") cut after \($0.lengthInDots) dots, as planned" }.joined(separator: ", ") + "."
        return DemoCouponPrinter.Received(row: [Self.name, job.name, profile.language.description, size + " (cut)",
                                                "\(record.pieces.count)", pngs.joined(separator: ", ")],
                                          line: line, job: job)
    }
}
