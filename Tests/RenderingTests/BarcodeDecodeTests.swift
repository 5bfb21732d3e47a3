import PrintModel
@testable import Rendering
import Testing

/// Every symbology, drawn at the module sizes a 203 dpi thermal head uses,
/// must read back with its exact data and format.
@Suite struct BarcodeDecodeTests {
    struct Sample: Sendable, CustomTestStringConvertible {
        var symbology: Barcode.Symbology
        var data: String
        /// zxing-cpp's name for the format.
        var format: String
        /// What zxing-cpp reports, when not the data itself.
        var reads: String? = nil
        var testDescription: String { symbology.rawValue }

        /// UPC-A bars are exactly EAN-13's with a leading 0, so an
        /// unrestricted decoder calls them EAN-13; asked for UPC-A only,
        /// zxing-cpp 3 still reports the 13-digit form of the number.
        var onlyFormat: String? { symbology == .upca ? "UPCA" : nil }
        var decodedText: String { reads ?? (symbology == .upca ? "0" + data : data) }
    }

    /// The IATA Resolution 792 example: a one-leg pass, no conditional part.
    static let boardingPass = "M1DESMARAIS/LUC       EABC123 YULFRAAC 0834 326J001A0025 100"

    static let samples: [Sample] = [
        Sample(symbology: .code128, data: "KIOSK-0042 Receipt #7", format: "Code128"),
        Sample(symbology: .ean13, data: "4006381333931", format: "EAN13"),
        Sample(symbology: .upca, data: "036000291452", format: "UPCA"),
        Sample(symbology: .itf, data: "0123456789", format: "ITF"),
        Sample(symbology: .code39, data: "KIOSK-42.A B", format: "Code39"),
        Sample(symbology: .ean8, data: "96385074", format: "EAN8"),
        // zxing-cpp reports a UPC-E as the EAN-13 form of the UPC-A it stands for: 04252614 is 042100005264.
        Sample(symbology: .upce, data: "04252614", format: "UPCE", reads: "0042100005264"),
        Sample(symbology: .code93, data: "KIOSK-93 Receipt", format: "Code93"),
        Sample(symbology: .codabar, data: "A40156B", format: "Codabar"),
        Sample(symbology: .qr, data: "https://kiosk.example/r/42", format: "QRCode"),
        Sample(symbology: .pdf417, data: boardingPass, format: "PDF417"),
        Sample(symbology: .aztec, data: "KIOSK AZTEC 42", format: "Aztec"),
        Sample(symbology: .datamatrix, data: "KP-LABEL-0042", format: "DataMatrix"),
    ]

    @Test func everySymbologyHasASample() {
        #expect(Set(Self.samples.map(\.symbology)) == Set(Barcode.Symbology.allCases))
    }

    @Test(arguments: samples, [2, 3])
    func decodesWithTheSameTextAndFormat(sample: Sample, module: Int) throws {
        let barcode = Barcode(sample.symbology, data: sample.data, moduleDots: module)
        let readings = try BarcodeDecoder.roundTrip(barcode, only: sample.onlyFormat)
        #expect(readings == [BarcodeDecoder.Reading(format: sample.format, text: sample.decodedText)],
                "\(sample.symbology) at \(module) dots per module")
    }

    @Test func theBoardingPassSampleIsAValidBCBP() throws {
        try BCBP.validate(Self.boardingPass)
    }
}
