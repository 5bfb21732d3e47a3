import Foundation
import IPP
import PrintModel
import Simulator
import Testing

/// Contacting the lab's real ippeveprinter printers over IPP and IPPS.
@Suite("Contacting simulated printers")
struct ContactTests {
    /// How long a contact may take here. The lab's printers answer in milliseconds, but in a
    /// full parallel run on two cores one once took over the product's 5 s; these tests check
    /// what a reply is read as, and the timeouts have tests of their own.
    static let patience = Duration.seconds(60)

    private func running(_ preset: SimulatedPrinter) async throws -> RunningPrinter {
        let lab = try await PrinterLab.shared()
        return try #require(lab.printer(preset), "the shared lab runs \(preset.name)")
    }

    @Test("80 mm receipt printer: the roll, its cut range and margins, kinds, trims", arguments: [false, true])
    func receiptPrinter(secure: Bool) async throws {
        let printer = try await running(.receipt80mm)
        // The exact numbers asserted below are the preset's: fail loudly if it changes.
        let preset = SimulatedPrinter.receipt80mm.attributes
        #expect(preset.contains("x-dimension 8000") && preset.contains("y-dimension 2500-300000"))
        #expect(preset.contains("media-left-margin 400") && preset.contains("finishings-supported 3,60,61,62,63"))

        let capabilities = try await PrinterContact.contact(uri: secure ? printer.secureURI : printer.uri, timeout: Self.patience)

        #expect(capabilities.name == printer.name)
        #expect(printer.name.hasPrefix("KioskPrint Receipt 80mm"))
        #expect(capabilities.location == "Front counter")
        #expect(capabilities.makeAndModel == "KioskPrint Simulated TM-80")
        let uuid = try #require(capabilities.uuid)
        #expect(!uuid.hasPrefix("urn:") && uuid.count == 36)
        #expect(capabilities.kinds == [.receipt, .roll])
        #expect(capabilities.kindsSource == .printer)
        #expect(capabilities.state == .idle)
        #expect(capabilities.stateReasons.isEmpty)

        let roll = try #require(capabilities.rolls.first)
        #expect(capabilities.rolls.count == 1)
        #expect(roll.width.hundredthsOfMillimetre == 8000)
        #expect(roll.cutLengths == Length(hundredthsOfMillimetre: 2500)...Length(hundredthsOfMillimetre: 300000))
        #expect(roll.margins == Margins(top: .zero, bottom: .zero, left: Length(hundredthsOfMillimetre: 400),
                                        right: Length(hundredthsOfMillimetre: 400)))
        #expect(roll.source == "main-roll")
        #expect(roll.name == "roll_min_80x25mm")
        #expect(roll.printableWidth.dots(at: 203) == 575)  // 72 mm at 203 dpi
        #expect(capabilities.sheets.isEmpty)
        #expect(capabilities.readyMedia == ["80 mm roll"])

        #expect(capabilities.resolutions.pwgRaster == [Resolution(203)])
        #expect(capabilities.resolutions.appleRaster == [Resolution(203)])
        #expect(capabilities.resolutions.preferred == Resolution(203))
        #expect(capabilities.resolutions.native == Resolution(203))
        #expect(capabilities.trims == [.afterPages, .afterDocuments, .afterCopies, .afterJob])
        #expect(capabilities.documentFormats.contains("image/pwg-raster"))
        #expect(capabilities.documentFormats.contains("image/urf"))
        #expect(!capabilities.color)
        #expect(!capabilities.duplex)
        #expect(capabilities.copies == 1...99)
        #expect(capabilities.adminURL?.contains(":\(printer.port)/") == true)
    }

    @Test("4x6 in label printer: one 10160 x 15240 label sheet, kind label")
    func labelPrinter() async throws {
        let printer = try await running(.label4x6)
        let capabilities = try await PrinterContact.contact(uri: printer.uri, timeout: Self.patience)

        #expect(capabilities.kinds == [.label])
        #expect(capabilities.kindsSource == .printer)
        #expect(capabilities.rolls.isEmpty)
        #expect(capabilities.sheets == [SheetMedia(name: "na_index-4x6_4x6in",
                                                   width: Length(hundredthsOfMillimetre: 10160),
                                                   length: Length(hundredthsOfMillimetre: 15240),
                                                   margins: .none, source: "main", type: "labels")])
        #expect(capabilities.readyMedia == ["na_index-4x6_4x6in"])
        #expect(capabilities.resolutions.native == Resolution(203))
        #expect(capabilities.trims == [.afterPages])
    }

    @Test("A4 office printer: A4 and Letter sheets, 300 and 600 dpi, colour, duplex")
    func documentPrinter() async throws {
        let printer = try await running(.documentA4)
        let capabilities = try await PrinterContact.contact(uri: printer.uri, timeout: Self.patience)

        #expect(capabilities.kinds == [.document])
        let a4 = try #require(capabilities.sheets.first { $0.name == "iso_a4_210x297mm" })
        #expect(a4.width.hundredthsOfMillimetre == 21000 && a4.length.hundredthsOfMillimetre == 29700)
        #expect(a4.margins.left.hundredthsOfMillimetre == 423)
        #expect(a4.source == "tray-1")
        let letter = try #require(capabilities.sheets.first { $0.name == "na_letter_8.5x11in" })
        #expect(letter.width.hundredthsOfMillimetre == 21590 && letter.length.hundredthsOfMillimetre == 27940)
        #expect(capabilities.sheets.count == 2)
        #expect(capabilities.rolls.isEmpty)
        #expect(capabilities.resolutions.pwgRaster == [Resolution(300), Resolution(600)])
        #expect(capabilities.resolutions.appleRaster == [Resolution(300), Resolution(600)])
        #expect(capabilities.resolutions.preferred == Resolution(600))
        #expect(capabilities.color)
        #expect(capabilities.duplex)
        #expect(capabilities.trims.isEmpty)
        #expect(capabilities.readyMedia == ["iso_a4_210x297mm"])
    }

    @Test("A roll printer without printer-kind: kinds inferred, or taken from the TXT record")
    func kindlessRollPrinter() async throws {
        let lab = try await PrinterLab.shared()
        let attributes = SimulatedPrinter.receipt80mm.attributes
            .split(separator: "\n").filter { !$0.contains("printer-kind") }.joined(separator: "\n")
        #expect(!attributes.contains("printer-kind"))
        let printer = try await lab.startPrinter(
            SimulatedPrinter(name: "Kindless Roll \(try Loopback.freePort())", kinds: [], attributes: attributes))
        defer { retire(printer) }

        let inferred = try await PrinterContact.contact(uri: printer.uri, timeout: Self.patience)
        #expect(inferred.kinds == [.roll, .receipt])
        #expect(inferred.kindsSource == .inferred)

        let announced = try await PrinterContact.contact(uri: printer.uri, timeout: Self.patience,
                                                         txt: TXTRecord(entries: ["kind": "receipt,label"]))
        #expect(announced.kinds == [.receipt, .label])
        #expect(announced.kindsSource == .dnssd)
    }

    @Test("The raw reply keeps every attribute, including collections")
    func rawAttributes() async throws {
        let printer = try await running(.receipt80mm)
        let attributes = try await PrinterContact.printerAttributes(uri: printer.uri, timeout: Self.patience)
        let database = try #require(attributes[named: "media-col-database"])
        #expect(database.syntax == .collection)
        let size = try #require(database.collections.first?.collections("media-size").first)
        #expect(size[named: "x-dimension"]?.value == .integer(8000))
        #expect(size[named: "y-dimension"]?.value == .range(2500...300000))
        #expect(attributes[named: "printer-state"]?.value == .enumValue(3))
        #expect(attributes[named: "printer-state"]?.syntax == .enumeration)
        #expect(attributes[named: "printer-resolution-default"]?.value
                == .resolution(IPPResolution(horizontal: 203, vertical: 203, unit: .dotsPerInch)))
        #expect(attributes.allSatisfy { $0.group == .printer })
    }

    @Test("Median time of 50 contacts to the receipt printer on loopback (printed, not asserted)")
    func contactTime() async throws {
        let printer = try await running(.receipt80mm)
        for (label, uri) in [("ipp", printer.uri), ("ipps", printer.secureURI)] {
            var times: [Double] = []
            for _ in 0..<50 {
                let start = ContinuousClock.now
                _ = try await PrinterContact.contact(uri: uri, timeout: Self.patience)
                times.append(seconds(ContinuousClock.now - start))
            }
            times.sort()
            let median = (times[24] + times[25]) / 2
            print(String(format: "contact %@ median %.1f ms (min %.1f, max %.1f) over 50",
                         label, median * 1000, times[0] * 1000, times[49] * 1000))
        }
    }
}
