public import ArgumentParser
import PrinterLanguages
public import PrintModel

/// `--model` and the overrides `printers add` takes for a raw printer
/// (`socket://`, `usb://`, `serial://`), which answers no questions about itself.
struct RawPrinterOptions: ParsableArguments {
    @Option(help: ArgumentHelp("A raw printer's model, as the catalog names it (TM-T88VI, TM-T20III, ZD420-203dpi).",
                               discussion: "For a usb:// printer the model it reports is used when this is left out.",
                               valueName: "name"))
    var model: String?

    @Option(help: ArgumentHelp("A raw printer's paper or label width (80mm, 58mm, 4in).", valueName: "length"))
    var width: Length?

    @Option(help: ArgumentHelp("Dots a raw printer's head prints across the paper (576 for 80 mm at 203 dpi).",
                               valueName: "dots"))
    var printable: Int?

    @Option(help: ArgumentHelp("A raw printer's resolution in dots per inch (180, 203, 300).", valueName: "dpi"))
    var dpi: Int?

    @Option(help: ArgumentHelp("A raw printer's command language: escpos or zpl.", valueName: "language"))
    var language: PrinterLanguage?

    @Option(help: ArgumentHelp("A raw printer's autocutter: none, partial, full or both.", valueName: "cutter"))
    var cutter: RawProfile.Cutter?

    /// What the options override in the catalog's figures, or describe for an unknown model.
    var overrides: ProfileOverrides {
        ProfileOverrides(width: width, printableDots: printable, dpi: dpi, language: language, cutter: cutter)
    }

    /// True when any option was given: they mean nothing for an IPP printer.
    var isGiven: Bool { model != nil || !overrides.isEmpty }
}

extension PrinterLanguage: ExpressibleByArgument {
    public init?(argument: String) { self.init(userWord: argument) }
    public static var allValueStrings: [String] { allCases.map(\.rawValue) }
}

extension RawProfile.Cutter: ExpressibleByArgument {
    public init?(argument: String) { self.init(rawValue: argument.lowercased()) }
    public static var allValueStrings: [String] { allCases.map(\.rawValue) }
}
