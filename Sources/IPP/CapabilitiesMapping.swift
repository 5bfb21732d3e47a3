public import PrintModel

extension PrinterCapabilities {
    /// Maps a Get-Printer-Attributes reply (its printer attributes) to what
    /// KioskPrint decides with. Pure: no C, no I/O, so it is tested on
    /// synthetic attributes.
    ///
    /// Any attribute may be missing or of an unexpected syntax: the field then
    /// falls back to the DNS-SD TXT record when one is given, else to an empty
    /// or neutral value. Printer data is never force-unwrapped.
    public init(ippAttributes attributes: [IPPAttribute], txt: TXTRecord? = nil) {
        let media = MediaMapping(attributes)
        let (kinds, kindsSource) = Self.kinds(attributes, txt: txt, rolls: media.rolls, sheets: media.sheets)

        self.init(
            name: attributes.string("printer-name") ?? attributes.string("printer-info") ?? txt?.makeAndModel ?? "",
            location: attributes.string("printer-location") ?? txt?.location ?? "",
            makeAndModel: attributes.string("printer-make-and-model") ?? txt?.makeAndModel ?? "",
            uuid: attributes.string("printer-uuid").map(Self.strippingURNPrefix) ?? txt?.uuid,
            kinds: kinds,
            kindsSource: kindsSource,
            state: attributes.int("printer-state").flatMap(PrinterState.init(ippValue:)) ?? .idle,
            stateReasons: attributes.strings("printer-state-reasons")
                .filter { !$0.isEmpty && $0 != "none" }
                .map(StateReason.init(ippKeyword:))
                .uniqued(),
            stateMessage: attributes.string("printer-state-message"),
            documentFormats: Self.nonEmpty(attributes.strings("document-format-supported"))
                ?? txt?.documentFormats ?? [],
            resolutions: Self.resolutions(attributes, txt: txt),
            rolls: media.rolls,
            sheets: media.sheets,
            readyMedia: media.ready,
            trims: attributes.ints("finishings-supported").compactMap(Trim.init(rawValue:)).uniqued(),
            color: attributes.bool("color-supported") == true
                || attributes.strings("print-color-mode-supported").contains("color"),
            duplex: attributes.strings("sides-supported").contains { $0.hasPrefix("two-sided") },
            copies: Self.copies(attributes[named: "copies-supported"]?.value),
            adminURL: attributes.string("printer-more-info") ?? txt?.adminURL
        )
        // Anything on the network can answer as a printer: keep only what is plausible, and say what was not.
        let (checked, problems) = checked()
        self = checked
        implausible = problems.isEmpty ? nil : problems
    }

    /// `printer-kind`, else the TXT `kind` key, else inferred from the media.
    /// A list of only words we do not know (`disc`) counts as no list.
    private static func kinds(_ attributes: [IPPAttribute], txt: TXTRecord?, rolls: [RollMedia],
                              sheets: [SheetMedia]) -> (Set<JobKind>, KindsSource) {
        let fromPrinter = Set(attributes.strings("printer-kind").flatMap { JobKind.parseList($0) })
        if !fromPrinter.isEmpty { return (fromPrinter, .printer) }
        if let fromTXT = txt?.kinds, !fromTXT.isEmpty { return (fromTXT, .dnssd) }
        return (inferKinds(rolls: rolls, sheets: sheets), .inferred)
    }

    private static func resolutions(_ attributes: [IPPAttribute], txt: TXTRecord?) -> Resolutions {
        func dpi(_ name: String) -> [Resolution] {
            (attributes[named: name]?.values ?? []).compactMap { $0.resolution?.dpi }.uniqued()
        }
        let urf = nonEmpty(attributes.strings("urf-supported")) ?? txt?.urf ?? []
        return Resolutions(pwgRaster: dpi("pwg-raster-document-resolution-supported"),
                           appleRaster: urfResolutions(urf),
                           printer: dpi("printer-resolution-supported"),
                           preferred: dpi("printer-resolution-default").first)
    }

    /// The `RS` entry of `urf-supported`: `RS300` or `RS300-600`, resolutions
    /// in dpi separated by `-`. Entries that are not numbers are skipped.
    static func urfResolutions(_ urf: [String]) -> [Resolution] {
        guard let entry = urf.first(where: { $0.uppercased().hasPrefix("RS") }) else { return [] }
        return entry.dropFirst(2).split(separator: "-")
            .compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
            .filter { $0 > 0 && $0 <= 10_000 }
            .map { Resolution($0) }
            .uniqued()
    }

    /// `copies-supported` is a range (`1-999`); an integer is read as 1...n.
    private static func copies(_ value: IPPValue?) -> ClosedRange<Int> {
        switch value {
        case .range(let range)?:
            return max(1, range.lowerBound)...max(1, range.upperBound)
        case .integer(let most)?:
            return 1...max(1, most)
        default:
            return 1...1
        }
    }

    private static func strippingURNPrefix(_ uuid: String) -> String {
        uuid.lowercased().hasPrefix("urn:uuid:") ? String(uuid.dropFirst(9)) : uuid
    }

    private static func nonEmpty(_ list: [String]) -> [String]? {
        let kept = list.filter { !$0.isEmpty }.uniqued()
        return kept.isEmpty ? nil : kept
    }
}
