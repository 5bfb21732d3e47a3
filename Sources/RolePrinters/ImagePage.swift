import Foundation
import PrintModel
import Rendering

/// A JPEG or PNG sent with a cut length (`media-col`'s y-dimension, which is
/// what iOS's `cutLengthForPaper` becomes): laid on a page of that length
/// at the printer's own dots, as a client's raster page would be, so the
/// job is cut there, whichever printer of the role prints it.
///
/// The image keeps one pixel per dot, as a printed image file does, and is
/// scaled down only to fit the printable width and the length. It sits at
/// the page's top left; the rest of the page is left blank.
enum ImagePage {
    /// The image as a one-page PWG raster document (8-bit grey), or nil when
    /// the printer has no roll to lay it on (the cut length then cannot apply).
    static func raster(_ image: GrayImage, length: Int, printer: PrinterCapabilities) throws -> Data? {
        guard let roll = printer.rolls.first else { return nil }
        let dpi = printer.resolutions.native?.horizontal ?? 203
        let width = roll.printableWidth.dots(at: dpi)
        let height = Length(hundredthsOfMillimetre: length).dots(at: dpi)
        guard width > 0, height > 0 else { return nil }
        var placed = image.width > width ? image.scaled(toWidth: width) : image
        if placed.height > height { placed = placed.scaled(toWidth: max(1, placed.width * height / placed.height)) }
        var pixels = [UInt8](repeating: 255, count: width * height)
        for row in 0..<min(placed.height, height) {
            let source = row * placed.width
            pixels.replaceSubrange(row * width..<(row * width + placed.width), with: placed.luminance[source..<(source + placed.width)])
        }
        guard let page = RasterPage(width: width, height: height, resolution: Resolution(dpi), format: .sgray8, pixels: pixels) else {
            return nil
        }
        return try RasterWriter(format: .pwg).encode([page])
    }
}
