import BenchSupport
import Simulator

/// The receipt printer the CUPS side prints to: the simulated 80 mm roll
/// printer with one addition, its default cut (80 x 3000 mm, already its
/// media-col-default) listed as a fixed size in media-col-database too.
///
/// Debian 12's CUPS 2.4.2 cannot make a driverless queue for the preset as it
/// is: `lpadmin -m everywhere` writes a PageSize entry per fixed size of
/// media-col-database, and with none (the roll's entry is a range of cut
/// lengths) it makes no PPD ("Printer does not support required IPP
/// attributes or document formats."), while lpadmin still exits 0. The bench
/// shows that on KioskPrint's own printer (`LpPrintPath.strictPreset`). The
/// roll, its width, margins, range of cut lengths and formats are the same.
enum CupsReceiptPrinter {
    static func preset() throws -> SimulatedPrinter {
        var printer = SimulatedPrinter.receipt80mm.named("KioskPrint Receipt 80mm for CUPS")
        printer.attributes = try withDefaultSizeListed(printer.attributes)
        return printer
    }

    /// The attribute file with media-col-default's value appended to
    /// media-col-database's values. In ipptool syntax a collection attribute
    /// is `ATTR collection NAME {` ... `}`, its values separated by `},{`
    /// lines; the closing `}` stands alone, unindented.
    static func withDefaultSizeListed(_ attributes: String) throws -> String {
        var lines = attributes.components(separatedBy: "\n")
        func block(_ name: String) throws -> (start: Int, end: Int) {
            guard let start = lines.firstIndex(of: "ATTR collection \(name) {"),
                  let end = lines[(start + 1)...].firstIndex(of: "}") else {
                throw BenchError("the receipt preset's attributes have no \(name) block; "
                    + "SimulatedPrinter.rollPrinter changed, update CupsReceiptPrinter")
            }
            return (start, end)
        }
        let defaultBlock = try block("media-col-default")
        let defaultValue = Array(lines[(defaultBlock.start + 1)..<defaultBlock.end])
        let database = try block("media-col-database")
        lines.insert(contentsOf: ["},{"] + defaultValue, at: database.end)
        return lines.joined(separator: "\n")
    }
}
