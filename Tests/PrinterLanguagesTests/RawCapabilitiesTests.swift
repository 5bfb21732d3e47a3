import Foundation
import Testing
import PrintModel
import PrinterLanguages

/// A raw printer's profile as the capabilities the renderer already reads:
/// the page geometry must give exactly the head's printable dots.
@Suite struct RawCapabilitiesTests {
    static func profile(_ name: String) -> RawProfile { ModelCatalog.entries.first { $0.name == name }!.profile }

    @Test func tmT20IIIOn80MillimetresIs576DotsAt203Dpi() throws {
        let capabilities = Self.profile("TM-T20III").capabilities()
        let geometry = try PageGeometry(capabilities: capabilities)
        #expect(geometry.printableWidthDots == 576)
        #expect(geometry.printableDots(pageLength: .millimetres(100)).width == 576)
        #expect(geometry.resolution == Resolution(203) && geometry.mediaWidth == .millimetres(80))
        #expect(geometry.margins == Margins(left: .millimetres(4), right: .millimetres(4)))
        #expect(geometry.cutLengths == Length.millimetres(25)...Length.millimetres(3000))
    }

    @Test func tmT88VIOn80MillimetresIs512DotsAt180Dpi() throws {
        let geometry = try PageGeometry(capabilities: Self.profile("TM-T88VI").capabilities())
        #expect(geometry.printableWidthDots == 512)
        #expect(geometry.printableDots(pageLength: .millimetres(100)).width == 512)
        // 512 dots at 180 dpi need 72.25 mm; the 7.75 mm left over is split 3.87 / 3.88.
        #expect(geometry.margins == Margins(left: Length(hundredthsOfMillimetre: 387), right: Length(hundredthsOfMillimetre: 388)))
    }

    @Test func everyModelAndPaperGivesItsPrintableDots() throws {
        for entry in ModelCatalog.entries {
            for option in entry.paperOptions {
                var profile = entry.profile
                profile.paperWidth = option.width
                profile.printableDots = option.printableDots
                let geometry = try PageGeometry(capabilities: profile.capabilities())
                #expect(geometry.printableWidthDots == option.printableDots, "\(entry.name) on \(option.width)")
                #expect(geometry.printableLeftDots + geometry.printableWidthDots <= geometry.widthInDots, "\(entry.name)")
            }
        }
    }

    @Test("Odd widths and resolutions still come out exact",
          arguments: [(5800, 203, 384), (5800, 180, 360), (8000, 300, 850), (10160, 300, 1200), (7000, 600, 1600), (8000, 203, 1)])
    func exactForAnyFigures(hundredths: Int, dpi: Int, dots: Int) throws {
        let profile = RawProfile(model: "test", language: .escpos, paperWidth: Length(hundredthsOfMillimetre: hundredths),
                                 printableDots: dots, dpi: dpi, cutter: .partial, minimumCut: .millimetres(25),
                                 maximumCut: .millimetres(3000), source: "test")
        #expect(try PageGeometry(capabilities: profile.capabilities()).printableWidthDots == dots)
    }

    @Test func whatTheCapabilitiesSay() {
        let receipt = Self.profile("TM-T88VI").capabilities(name: "Till 3", location: "front")
        #expect(receipt.name == "Till 3" && receipt.location == "front" && receipt.makeAndModel == "Epson TM-T88VI")
        #expect(receipt.kinds == [.receipt, .roll] && receipt.state == .idle && receipt.stateReasons.isEmpty)
        #expect(receipt.documentFormats == ["application/vnd.escpos"])
        #expect(receipt.resolutions.native == Resolution(180))
        #expect(receipt.trims == [.afterPages, .afterDocuments, .afterCopies, .afterJob])
        #expect(receipt.readyMedia == ["80 mm roll"] && receipt.rolls.first?.isReady(in: receipt.readyMedia) == true)
        #expect(receipt.rawProfile == Self.profile("TM-T88VI"))

        let label = Self.profile("ZD420-203dpi").capabilities()
        #expect(label.name == "Zebra ZD420-203dpi")
        #expect(label.kinds == [.label] && label.documentFormats == ["application/vnd.zebra-zpl"])
        #expect(label.trims.isEmpty, "no cutter: no cut finishings")
        #expect(label.rolls.first?.cutLengths == Length.inches(0.25)...Length.millimetres(991))
    }

    @Test func storedCapabilitiesWithAndWithoutAProfileDecode() throws {
        let ipp = PrinterCapabilities(name: "IPP printer", kinds: [.receipt])
        let json = try JSONEncoder().encode(ipp)
        #expect(!String(decoding: json, as: UTF8.self).contains("rawProfile"), "nothing new is written for an IPP printer")
        #expect(try JSONDecoder().decode(PrinterCapabilities.self, from: json) == ipp)
        #expect(try JSONDecoder().decode(PrinterCapabilities.self, from: json).rawProfile == nil)

        let raw = Self.profile("TM-m30III").capabilities()
        let decoded = try JSONDecoder().decode(PrinterCapabilities.self, from: try JSONEncoder().encode(raw))
        #expect(decoded == raw && decoded.rawProfile?.model == "TM-m30III")
    }
}
