public import PrintModel

/// What the administrator says about a raw printer at `printers add`
/// (`--width 58mm --printable 360 --dpi 180 --language escpos`): applied on
/// top of the catalog's figures, or the whole description of a model the
/// catalog does not know.
public struct ProfileOverrides: Hashable, Sendable {
    /// `--width`: the paper or label stock width.
    public var width: Length?
    /// `--printable`: dots the head prints across that paper.
    public var printableDots: Int?
    /// `--dpi`: the head's resolution.
    public var dpi: Int?
    /// `--language`.
    public var language: PrinterLanguage?
    /// The autocutter, when it differs from the catalog's (a Zebra with its cutter option).
    public var cutter: RawProfile.Cutter?

    /// Overrides; nil for each option not given.
    public init(width: Length? = nil, printableDots: Int? = nil, dpi: Int? = nil,
                language: PrinterLanguage? = nil, cutter: RawProfile.Cutter? = nil) {
        self.width = width; self.printableDots = printableDots; self.dpi = dpi
        self.language = language; self.cutter = cutter
    }

    /// True when nothing is overridden.
    public var isEmpty: Bool { self == ProfileOverrides() }

    /// `--width 58 mm, --printable 360`: the overrides as the options that gave them.
    public var listing: String {
        var parts: [String] = []
        if let width { parts.append("--width \(width)") }
        if let printableDots { parts.append("--printable \(printableDots)") }
        if let dpi { parts.append("--dpi \(dpi)") }
        if let language { parts.append("--language \(language.rawValue)") }
        if let cutter { parts.append("--cutter \(cutter.rawValue)") }
        return parts.joined(separator: ", ")
    }
}

extension ModelCatalog {
    /// The profile of a raw printer: the catalog entry for `model` (typed by
    /// the administrator) or else `deviceModel` (its 1284 `MDL:`), with the
    /// overrides applied; from the overrides alone when neither names a known model.
    ///
    /// A typed model the catalog does not know is an error only when the
    /// overrides cannot describe the printer either.
    public static func profile(model: String? = nil, deviceModel: String? = nil,
                               overrides: ProfileOverrides = ProfileOverrides()) throws(ProfileError) -> RawProfile {
        if let model {
            let found: CatalogEntry
            do throws(CatalogError) {
                found = try entry(named: model, dpi: overrides.dpi)
            } catch {
                guard overrides.language != nil, overrides.width != nil, overrides.dpi != nil else { throw .catalog(error) }
                return try overrides.described(model: model)
            }
            return try overrides.applied(to: found)
        } else if let deviceModel, let entry = entry(deviceModel: deviceModel, dpi: overrides.dpi) {
            return try overrides.applied(to: entry)
        }
        return try overrides.described(model: model ?? deviceModel)
    }
}

extension ProfileOverrides {
    /// The catalog entry's profile with these overrides applied.
    public func applied(to entry: CatalogEntry) throws(ProfileError) -> RawProfile {
        var profile = entry.profile
        guard !isEmpty else { return profile }
        try checkValues()
        let name = profile.makeAndModel
        let newDPI = dpi.map(ModelCatalog.normalisedDPI) ?? profile.dpi
        let isLabel = profile.kind == .label
        let width = width ?? profile.paperWidth
        let pitch = DotPitch(dpi: newDPI)

        if let language { profile.language = language }
        if let cutter { profile.cutter = cutter }
        profile.dpi = newDPI
        profile.paperWidth = width
        if let printableDots {
            profile.printableDots = printableDots
        } else if newDPI != entry.profile.dpi {
            // Another resolution is another head: the catalog's dots no longer apply.
            guard isLabel else { throw .needsPrintable(model: name, reason: "it prints at \(entry.profile.dpi) dpi, not \(newDPI)") }
            profile.printableDots = pitch.dots(width)
        } else if let option = entry.paperOptions.first(where: { abs(($0.width - width).hundredthsOfMillimetre) <= 50 }) {
            profile.printableDots = option.printableDots
        } else if isLabel {
            profile.printableDots = min(entry.headDots, pitch.dots(width))
        } else {
            let widths = entry.paperOptions.map(\.width.description).joined(separator: " or ")
            throw .needsPrintable(model: name, reason: "its maker documents \(widths) paper, not \(width)")
        }
        if newDPI == entry.profile.dpi && profile.printableDots > entry.headDots {
            throw .printableWiderThanHead(dots: profile.printableDots, model: name, headDots: entry.headDots)
        }
        try Self.checkFits(dots: profile.printableDots, width: width, dpi: newDPI)
        profile.source += " Overridden by the administrator: \(listing)."
        return profile
    }

    /// A profile from the overrides alone, for a model the catalog does not
    /// know: the language, width and resolution are needed, and for a receipt
    /// printer the printable dots (a label printer prints its stock edge to edge).
    public func described(model: String?) throws(ProfileError) -> RawProfile {
        let missing = [language == nil ? "--language" : nil, width == nil ? "--width" : nil, dpi == nil ? "--dpi" : nil,
                       language?.usualKind == .receipt && printableDots == nil ? "--printable" : nil].compactMap { $0 }
        guard missing.isEmpty, let language, let width, let dpi else { throw .missing(missing, model: model) }
        try checkValues()
        let resolution = ModelCatalog.normalisedDPI(dpi)
        let kind = language.usualKind
        let dots = printableDots ?? DotPitch(dpi: resolution).dots(width)
        try Self.checkFits(dots: dots, width: width, dpi: resolution)
        // The longest label ZPL's ^LL can describe, and no receipt longer than the catalog's.
        let longestLabel = Length(hundredthsOfMillimetre: ZPLLanguage.labelLengthLimit * 2540 / resolution)
        return RawProfile(
            model: model ?? "raw \(language) printer", language: language, kind: kind, paperWidth: width,
            printableDots: dots, dpi: resolution, cutter: cutter ?? (kind == .receipt ? .partial : .none),
            minimumCut: kind == .receipt ? ModelCatalog.shortestReceipt : .inches(0.25),
            maximumCut: kind == .receipt ? ModelCatalog.longestReceipt : min(longestLabel, ModelCatalog.longestReceipt),
            // An ESC/POS printer of unknown make: a drawer pulse to an empty port does no harm.
            drawerPins: kind == .receipt ? [.pin2, .pin5] : [],
            mediaTracking: kind == .receipt ? .continuous : .gap,
            source: "Described by the administrator (\(listing)); the model is not in the catalog.")
    }

    private func checkValues() throws(ProfileError) {
        if let width, width <= .zero { throw .notPositive("--width", width.description) }
        if let printableDots, printableDots <= 0 { throw .notPositive("--printable", "\(printableDots)") }
        if let dpi, dpi <= 0 { throw .notPositive("--dpi", "\(dpi)") }
    }

    private static func checkFits(dots: Int, width: Length, dpi: Int) throws(ProfileError) {
        let paperDots = DotPitch(dpi: dpi).dots(width)
        if dots > paperDots { throw .printableWiderThanPaper(dots: dots, width: width, dpi: dpi, paperDots: paperDots) }
    }
}
