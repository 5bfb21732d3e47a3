public import PrintModel

/// Why no profile could be made for a raw printer from its model and the
/// administrator's overrides. Each names the option to add or change.
public enum ProfileError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The model name found nothing usable in the catalog, and the overrides cannot stand in for it.
    case catalog(CatalogError)
    /// Options an unknown model needs that were not given.
    case missing([String], model: String?)
    /// The catalog's printable dots do not apply (another width or resolution) and none were given.
    case needsPrintable(model: String, reason: String)
    /// More printable dots than the paper is wide.
    case printableWiderThanPaper(dots: Int, width: Length, dpi: Int, paperDots: Int)
    /// More printable dots than the model's head has.
    case printableWiderThanHead(dots: Int, model: String, headDots: Int)
    /// A width, dot count or resolution of zero or less.
    case notPositive(String, String)

    public var description: String {
        switch self {
        case .catalog(let error):
            error.description
        case .missing(let options, let model):
            (model.map { "The printer model \"\($0)\" is not in KioskPrint's catalog, so " } ?? "Without a model, ")
                + "KioskPrint needs the printer described: add \(options.joined(separator: ", ")) "
                + "(for example --language escpos --width 80mm --printable 576 --dpi 203)."
        case .needsPrintable(let model, let reason):
            "The \(model)'s printable width is not known for these settings: \(reason). "
                + "Give the dots it prints across with --printable (its manual lists them as \"print width\" in dots)."
        case .printableWiderThanPaper(let dots, let width, let dpi, let paperDots):
            "\(dots) printable dots do not fit on \(width) paper: at \(dpi) dpi it is only \(paperDots) dots wide. "
                + "Check --printable, --width and --dpi against the printer's manual."
        case .printableWiderThanHead(let dots, let model, let headDots):
            "The \(model)'s head prints at most \(headDots) dots across, not \(dots). Lower --printable to \(headDots) or less."
        case .notPositive(let option, let value):
            "\(option) \(value) is not a usable value: it must be more than zero."
        }
    }
}
