import BenchSupport
import Foundation
import PrintModel
import Rendering
import Templates

/// The receipt as the CUPS side prints it: the built-in template with its
/// sample data drawn as PDF for the media the receipt printer's saved
/// capabilities give (`MediaSelection.media(for:on:)`), the same page
/// KioskPrint draws as raster. Drawn once, before any timing.
struct ReceiptPDF: Sendable {
    var path: String
    var bytes: Int
    /// The paper's width and the page's length (the cut), hundredths of a millimetre.
    var width: Int
    var cutLength: Int

    /// `80`, `160.79`: millimetres as `Custom.WxLmm` wants them, exact to the hundredth.
    var widthText: String { Self.millimetres(width) }
    var lengthText: String { Self.millimetres(cutLength) }

    /// `dataJSON`: the receipt's data (default: its sample data); `name`: the file in `folder`.
    static func draw(for capabilities: PrinterCapabilities, folder: URL, dataJSON: String? = nil,
                     name: String = "receipt.pdf") throws -> ReceiptPDF {
        let source = try TemplateCatalog().find("receipt")
        let job = try TemplateJob(source: source, dataJSON: Data((try dataJSON ?? ReceiptSample.json()).utf8),
                                  dataFile: "receipt.sample.json")
        let media = try MediaSelection.media(for: job.document.page, on: capabilities)
        let pdf = try job.renderPDF(on: media)
        guard pdf.pageLengths.count == 1, let length = pdf.pageLengths.first else {
            throw BenchError("the receipt drew \(pdf.pageLengths.count) pages; the bench expects one")
        }
        let path = folder.appendingPathComponent(name).path
        try pdf.data.write(to: URL(fileURLWithPath: path))
        return ReceiptPDF(path: path, bytes: pdf.data.count, width: media.mediaWidth.hundredthsOfMillimetre,
                          cutLength: length.hundredthsOfMillimetre)
    }

    static func millimetres(_ hundredths: Int) -> String {
        let whole = hundredths / 100, fraction = hundredths % 100
        if fraction == 0 { return "\(whole)" }
        return fraction % 10 == 0 ? "\(whole).\(fraction / 10)" : String(format: "%d.%02d", whole, fraction)
    }
}
