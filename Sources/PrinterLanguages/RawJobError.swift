public import PrintModel

/// Why a job could not be turned into a printer's commands. Each names the
/// printer and says what to change.
public enum RawJobError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A job with no pieces, or with copies below 1.
    case nothingToPrint(printer: String)
    /// A piece wider than the head prints.
    case pieceTooWide(piece: Int, width: Int, printer: String, printableDots: Int)
    /// A piece longer than the language can describe in one page or label.
    case pieceTooLong(piece: Int, height: Int, printer: String, limit: Int)
    /// A drawer kick for a printer without that drawer output.
    case noDrawerPin(RawProfile.DrawerPin, printer: String, pins: [RawProfile.DrawerPin])
    /// A drawer pulse outside what the language's pulse command takes (`ESC p`: 2...510 ms).
    case drawerPulseOutOfRange(onMilliseconds: Int, offMilliseconds: Int, allowed: ClosedRange<Int>, language: PrinterLanguage)
    /// A process ID for a printer or language that does not answer one.
    case noProcessID(printer: String)
    /// Text for the printer's own font, for a language KioskPrint sends only raster in.
    case noDeviceText(printer: String, language: PrinterLanguage)
    /// A printer-font line that does not fit the piece or the font's limits.
    case deviceTextMisplaced(piece: Int, row: Int, printer: String, problem: String)

    public var description: String {
        switch self {
        case .nothingToPrint(let printer):
            "The job for \(printer) has no pieces to print (or fewer than one copy). "
                + "Render at least one page and ask for at least one copy."
        case .pieceTooWide(let piece, let width, let printer, let dots):
            "Piece \(piece + 1) is \(width) dots wide, but \(printer) prints at most \(dots) dots across. "
                + "Render it for this printer's printable width, or check the printer's --printable setting."
        case .pieceTooLong(let piece, let height, let printer, let limit):
            "Piece \(piece + 1) is \(height) dots long, more than the \(limit) \(printer) accepts in one piece. "
                + "Let the template cut it into shorter pieces."
        case .noDrawerPin(let pin, let printer, let pins):
            pins.isEmpty
                ? "\(printer) has no cash drawer port, so no drawer can be opened through it. "
                    + "Connect the drawer to a receipt printer that has one."
                : "\(printer) has no drawer output on \(pin == .pin2 ? "pin 2" : "pin 5"); "
                    + "it has \(pins.map { $0 == .pin2 ? "pin 2" : "pin 5" }.joined(separator: " and ")). Use that one."
        case .drawerPulseOutOfRange(let on, let off, let allowed, let language):
            "A drawer pulse of \(on) ms on and \(off) ms off cannot be sent: \(language) allows "
                + "\(allowed.lowerBound) to \(allowed.upperBound) ms for each. Choose values in that range."
        case .noProcessID(let printer):
            "\(printer) does not confirm a finished print with a process ID. "
                + "Send the job without one; completion is then judged from the printer's status after the cut."
        case .noDeviceText(let printer, let language):
            "\(printer) speaks \(language), in which KioskPrint prints text only as raster. "
                + "Set the role's delivery to \"raster\" (or \"auto\") in kiosk.toml."
        case .deviceTextMisplaced(let piece, let row, let printer, let problem):
            "The text line at row \(row) of piece \(piece + 1) cannot be printed in \(printer)'s own font: \(problem). "
                + "This is KioskPrint's fault; set the role's delivery to \"raster\" and report it."
        }
    }
}
