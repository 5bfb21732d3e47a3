import Foundation
import Testing
import Simulator

/// `kioskprint render` and `kioskprint templates`, run as an integrator would.
@Suite struct RenderCommandTests {
    static func temporaryFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("kioskprint-render-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test func previewOfTheReceiptSaysWhereItIsCut() async throws {
        let folder = try Self.temporaryFolder()
        let out = folder.appendingPathComponent("receipt.pwg").path
        // FC_DEBUG=1 makes fontconfig print each pattern it matches: one per
        // style of the receipt (sizes 8, 10, 13 bold, 14 bold, 8 italic) and
        // the oblique face Pango then measures the italic with. Before the
        // font map took the page's resolution and the context a language, 12.
        var runner = CommandRunner()
        runner.environment["FC_DEBUG"] = "1"
        let result = try await runner.run(["render", "receipt", "--out", out])
        #expect(result.status == 0, "\(result.errors)")
        let matches = result.output.split(separator: "\n").filter { $0.hasPrefix("Match Pattern has") }.count
        #expect((1...6).contains(matches), "fontconfig matched \(matches) patterns")
        #expect(result.output.contains("80 mm roll, 203 dpi, 639 dots across"))
        let cut = try #require(result.output.firstMatch(of: /cut at ([0-9.]+) mm \(media-col y-dimension ([0-9]+)\)/))
        // One value: the length printed and the y-dimension agree to the hundredth of a millimetre.
        #expect(Int((Double(cut.1)! * 100).rounded()) == Int(cut.2)!)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: out))
        #expect(bytes.prefix(4) == Data("RaS2".utf8))   // PWG raster sync word
    }

    @Test func everyOutputFormatIsWritten() async throws {
        let folder = try Self.temporaryFolder()
        let magic = ["png": Data([0x89, 0x50, 0x4E, 0x47]), "pdf": Data("%PDF".utf8),
                     "pwg": Data("RaS2".utf8), "urf": Data("UNIR".utf8)]
        for (format, prefix) in magic {
            let out = folder.appendingPathComponent("pass.\(format)").path
            let result = try await CommandRunner().run(["render", "boarding-pass", "--out", out])
            #expect(result.status == 0, "\(format): \(result.errors)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: out)).prefix(4) == prefix, "\(format)")
        }
        let refused = try await CommandRunner().run(["render", "receipt", "--out", folder.appendingPathComponent("x.jpg").path])
        #expect(refused.status != 0)
        #expect(refused.errors.contains(".png, .pdf, .pwg or .urf"))
    }

    @Test func theRolesPrinterGivesThePage() async throws {
        let lab = try await PrinterLab.shared()
        let (kioskprint, _) = CommandRunner.forLab(lab)
        let label = try #require(lab.printer(.label4x6))
        #expect(try await kioskprint.run(["printers", "add", label.uri, "--role", "label"]).status == 0)
        let out = try Self.temporaryFolder().appendingPathComponent("label.png").path
        let result = try await kioskprint.run(["render", "shipping-label", "--role", "label", "--out", out])
        #expect(result.status == 0, "\(result.errors)")
        // The label printer's own 4x6 stock, at its own resolution.
        #expect(result.output.contains(label.name))
        #expect(result.output.contains("101.6 mm x 152.4 mm sheet"))
        #expect(result.output.contains("page 152.40 mm"))

        let none = try await kioskprint.run(["render", "receipt", "--role", "coupon", "--out", out])
        #expect(none.status != 0)
        #expect(none.errors.contains("No printer holds the role \"coupon\""))
        #expect(none.errors.contains("printers pick --role coupon"))
    }

    @Test func listShowsBuiltInsAndACustomOverride() async throws {
        let folder = try Self.temporaryFolder()
        try #"<template><text>Our own receipt</text></template>"#.write(
            to: folder.appendingPathComponent("receipt.xml"), atomically: true, encoding: .utf8)
        let result = try await CommandRunner().run(["templates", "list", "--templates", folder.path])
        #expect(result.status == 0, "\(result.errors)")
        for name in ["receipt", "receipt-ru", "shipping-label", "product-label", "bag-tag", "boarding-pass",
                     "boarding-pass-ticket"] {
            #expect(result.output.contains("\n\(name) "), "\(name)")
        }
        #expect(result.output.contains("overrides the built-in"))
    }

    @Test func checkReportsDataAndBarcodeProblemsAtTheirLines() async throws {
        let folder = try Self.temporaryFolder()
        try """
            <template>
              <text>{{store.name}}</text>
              <barcode type="ean13">{{ean}}</barcode>
            </template>
            """.write(to: folder.appendingPathComponent("tag.xml"), atomically: true, encoding: .utf8)
        let data = folder.appendingPathComponent("tag.json")
        try #"{"ean": "40063813339AB"}"#.write(to: data, atomically: true, encoding: .utf8)
        let result = try await CommandRunner().run(["templates", "check", folder.appendingPathComponent("tag.xml").path,
                                              "--data", data.path])
        #expect(result.status == 1)
        #expect(result.output.contains("tag.xml:2:3: the data has no \"store.name\""))
        #expect(result.output.contains("tag.xml:3:3: The EAN-13 barcode data \"40063813339AB\""))

        let builtIns = try await CommandRunner().run(["templates", "check", "receipt", "receipt-ru", "boarding-pass"])
        #expect(builtIns.status == 0, "\(builtIns.output)")
        #expect(!builtIns.output.contains("warning"))
    }
}
