/// What a printer may say about itself before KioskPrint trusts it: anything
/// on the store's network can answer as a printer, and a figure out of
/// range (a resolution of 0 dpi, a roll 40 m wide, margins wider than the
/// paper) would divide by zero or draw nonsense later. `checked()` keeps what
/// is plausible and names what it dropped, so the printer is reported, not
/// believed.
public enum CapabilitiesCheck {
    /// Resolutions a real printer head has: 72 dpi (the coarsest label
    /// printers report) to 4800 dpi (photo inkjets).
    public static let resolutions = 72...4800
    /// Paper widths from a 12 mm tape to a 2 m large-format roll.
    public static let widths = Length.millimetres(6)...Length.millimetres(2000)
    /// Lengths from a 6 mm label to a 100 m roll's longest single cut.
    public static let lengths = Length.millimetres(6)...Length.millimetres(100_000)
}

extension PrinterCapabilities {
    /// The capabilities with every implausible figure left out, and a sentence
    /// for each thing left out (empty when the printer made sense).
    public func checked() -> (capabilities: PrinterCapabilities, problems: [String]) {
        var kept = self
        var problems: [String] = []
        func plausible(_ resolution: Resolution) -> Bool {
            CapabilitiesCheck.resolutions.contains(resolution.horizontal) && CapabilitiesCheck.resolutions.contains(resolution.vertical)
        }
        let reported = resolutions.all + [resolutions.preferred].compactMap { $0 }
        for resolution in Set(reported).sorted() where !plausible(resolution) {
            problems.append("a resolution of \(resolution) (outside \(CapabilitiesCheck.resolutions.lowerBound) to "
                + "\(CapabilitiesCheck.resolutions.upperBound) dpi)")
        }
        kept.resolutions = Resolutions(pwgRaster: resolutions.pwgRaster.filter(plausible),
                                       appleRaster: resolutions.appleRaster.filter(plausible),
                                       printer: resolutions.printer.filter(plausible),
                                       preferred: resolutions.preferred.flatMap { plausible($0) ? $0 : nil })
        kept.rolls = rolls.filter { roll in
            guard let problem = Self.problem(roll) else { return true }
            problems.append(problem)
            return false
        }
        kept.sheets = sheets.filter { sheet in
            guard let problem = Self.problem(sheet) else { return true }
            problems.append(problem)
            return false
        }
        if copies.lowerBound < 1 || copies.upperBound > 10_000 {
            problems.append("copies \(copies.lowerBound) to \(copies.upperBound)")
            // Both ends clamped: a range of 20,000 to 30,000 would otherwise end below its start.
            let lowest = min(max(1, copies.lowerBound), 10_000)
            kept.copies = lowest...max(lowest, min(copies.upperBound, 10_000))
        }
        return (kept, problems)
    }

    private static func problem(_ roll: RollMedia) -> String? {
        let what = "a \(roll.width.millimetreFigure) mm roll cut \(roll.cutLengths.lowerBound.millimetreFigure) to "
            + "\(roll.cutLengths.upperBound.millimetreFigure) mm"
        guard CapabilitiesCheck.widths.contains(roll.width),
              CapabilitiesCheck.lengths.contains(roll.cutLengths.lowerBound),
              CapabilitiesCheck.lengths.contains(roll.cutLengths.upperBound) else { return what + " (a size no paper has)" }
        guard fits(roll.margins, width: roll.width, length: roll.cutLengths.upperBound) else {
            return what + " with margins that leave nothing to print on"
        }
        return nil
    }

    private static func problem(_ sheet: SheetMedia) -> String? {
        let what = "paper of \(sheet.width.millimetreFigure) x \(sheet.length.millimetreFigure) mm"
        guard CapabilitiesCheck.widths.contains(sheet.width), CapabilitiesCheck.lengths.contains(sheet.length) else {
            return what + " (a size no paper has)"
        }
        guard fits(sheet.margins, width: sheet.width, length: sheet.length) else {
            return what + " with margins that leave nothing to print on"
        }
        return nil
    }

    /// Margins are not negative and leave some of the paper to print on.
    private static func fits(_ margins: Margins, width: Length, length: Length) -> Bool {
        let all = [margins.top, margins.bottom, margins.left, margins.right]
        return all.allSatisfy { $0 >= .zero } && margins.left + margins.right < width && margins.top + margins.bottom < length
    }
}
