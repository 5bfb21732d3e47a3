import Foundation
import PrintModel
import PrinterLanguages
import Simulator
import Store
import Testing

/// `kioskprint print --file` with printer-language bytes: sent as they are
/// to a printer of their language, refused before queueing for any other.
@Suite struct RawPrintCommandTests {
    static let label = "^XA\n^FO50,60^A0N,40,40^FDSHIP TO 4711^FS\n^FO50,120^A0N,30,30^FDKIOSKPRINT^FS\n^XZ\n"

    func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("kioskprint-rawprint-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test func zplForAnIPPReceiptRoleIsRefusedWithTheReason() async throws {
        let lab = try await PrinterLab.shared()
        let printer = try await lab.startPrinter(.recording(
            SimulatedPrinter.receipt80mm.named("CLI Raw Receipt \(try Loopback.freePort())")))
        defer { printer.stop() }
        let (kioskprint, database) = CommandRunner.forLab(lab)
        #expect(try await kioskprint.run(["printers", "add", printer.uri, "--role", "receipt"]).status == 0)
        let file = try folder().appendingPathComponent("label.zpl")
        try Data(Self.label.utf8).write(to: file)

        let refused = try await kioskprint.run(["print", "--file", file.path, "--role", "receipt"])
        #expect(refused.status != 0)
        #expect(refused.errors.contains("label.zpl is ZPL II, and no printer of the role receipt takes ZPL II"),
                "\(refused.errors)")
        #expect(refused.errors.contains("\"\(printer.name)\" takes"))
        #expect(refused.errors.contains("Nothing was queued"))
        #expect(try await KioskStore(path: database).jobs(includeFinished: true).isEmpty)
        #expect(try printer.receivedJobs().isEmpty)
    }

    @Test func zplForARawLabelRoleIsPrintedAsSent() async throws {
        let zebra = try ZPLPrinterSimulator()
        defer { zebra.stop() }
        let database = try folder().appendingPathComponent("kioskprint.sqlite").path
        let kioskprint = CommandRunner(environment: ["KIOSKPRINT_DATABASE": database])
        // Saved through the store: `printers add` takes no raw URI on this branch yet.
        let capabilities = try ModelCatalog.profile(model: "ZD420-203dpi").capabilities(name: "Zebra at \(zebra.uri)")
        _ = try await KioskStore(path: database).assign(uri: zebra.uri, serviceName: nil, capabilities: capabilities,
                                                        to: try Role("label"), as: .primary)
        let file = try folder().appendingPathComponent("x.zpl")
        try Data(Self.label.utf8).write(to: file)

        let printed = try await kioskprint.run(["print", "--file", file.path, "--role", "label", "--wait"])
        #expect(printed.status == 0, "\(printed.output)\(printed.errors)")
        #expect(printed.output.contains("Job 1 queued for the role label: \"x.zpl\"."))
        #expect(printed.output.contains("Job 1 printed on Zebra at \(zebra.uri)."))
        let labels = try await zebra.labels(atLeast: 1)
        #expect(labels.count == 1)
        #expect(labels.first?.fields == [ZPLField(x: 50, y: 60, data: "SHIP TO 4711"), ZPLField(x: 50, y: 120, data: "KIOSKPRINT")])
        #expect(zebra.record.problems.isEmpty, "\(zebra.record.problems)")

        let bin = try folder().appendingPathComponent("receipt.bin")
        try Data([0x1B, 0x40, 0x41, 0x0A]).write(to: bin)
        let unnamed = try await kioskprint.run(["print", "--file", bin.path, "--role", "label"])
        #expect(unnamed.status != 0)
        #expect(unnamed.errors.contains("receipt.bin does not say which printer language it is in: give it with --language"))
        let wrong = try await kioskprint.run(["print", "--file", bin.path, "--role", "label", "--language", "escpos"])
        #expect(wrong.errors.contains("no printer of the role label takes ESC/POS"), "\(wrong.errors)")
        #expect(try await KioskStore(path: database).jobs(includeFinished: true).count == 1)
    }

    @Test func escposPassesThroughAndTheDrawerIsKickedAfterATemplatesCut() async throws {
        let epson = try EscPosPrinterSimulator()
        defer { epson.stop() }
        let folder = try folder()
        let database = folder.appendingPathComponent("kioskprint.sqlite").path
        let kioskprint = CommandRunner(environment: ["KIOSKPRINT_DATABASE": database])
        let capabilities = try ModelCatalog.profile(model: "TM-T20III").capabilities(name: "Epson at \(epson.uri)")
        _ = try await KioskStore(path: database).assign(uri: epson.uri, serviceName: nil, capabilities: capabilities,
                                                        to: try Role("till"), as: .primary)
        // ESC @ (initialise), text, GS V 66 0 (feed to the cutter, partial cut): Epson's ESC/POS command reference.
        let sale = folder.appendingPathComponent("sale.escpos")
        try Data([0x1B, 0x40] + Array("Total 12.50\n".utf8) + [0x1D, 0x56, 0x42, 0x00]).write(to: sale)

        let printed = try await kioskprint.run(["print", "--file", sale.path, "--role", "till", "--wait"])
        #expect(printed.status == 0, "\(printed.output)\(printed.errors)")
        let pieces = try await epson.pieces(atLeast: 1)
        #expect(pieces.first?.text.map(\.text) == ["Total 12.50"])
        #expect(pieces.first?.cut?.kind == .partial)
        #expect(epson.record.drawerPulses.isEmpty)

        let kick = try await kioskprint.run(["print", "--file", sale.path, "--role", "till", "--drawer"])
        #expect(kick.status != 0)
        #expect(kick.errors.contains("cannot kick the cash drawer after them"), "\(kick.errors)")

        let receipt = try await kioskprint.run(["print", "receipt", "--role", "till", "--drawer", "--wait"])
        #expect(receipt.status == 0, "\(receipt.output)\(receipt.errors)")
        let record = try await epson.record("the drawer pulse") { !$0.drawerPulses.isEmpty }
        #expect(record.drawerPulses.map(\.pin) == [2])
        #expect(record.pieces.count == 2)
        #expect(try await KioskStore(path: database).jobs(includeFinished: true).map(\.opensDrawer) == [false, true])
    }
}
