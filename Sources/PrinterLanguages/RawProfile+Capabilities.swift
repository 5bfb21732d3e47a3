public import PrintModel

extension RawProfile {
    /// The capabilities the renderer and the spooler read, for a raw printer
    /// with this profile: a roll of the paper width whose side margins leave
    /// exactly `printableDots` at the head's pitch (`PageGeometry` then gives
    /// that many printable dots), cut between the profile's shortest and
    /// longest piece; its resolution; the language's MIME type as the only
    /// document format; receipt and roll, or label alone (a Zebra is no
    /// receipt printer), as its kinds; the cut
    /// finishings when it has a cutter; idle until its status is read.
    ///
    /// `name` is the printer's name in lists (the make and model when nil).
    public func capabilities(name: String? = nil, location: String = "") -> PrinterCapabilities {
        let roll = RollMedia(width: paperWidth, cutLengths: minimumCut...max(minimumCut, maximumCut),
                             margins: printableMargins, source: "main-roll")
        let resolution = Resolution(dpi)
        return PrinterCapabilities(
            name: name ?? makeAndModel, location: location, makeAndModel: makeAndModel,
            kinds: kind == .receipt ? [.receipt, .roll] : [.label],
            // The catalog or the administrator speaks for a printer that cannot be asked.
            kindsSource: .printer,
            state: .idle, documentFormats: [language.mimeType],
            resolutions: Resolutions(printer: [resolution], preferred: resolution),
            rolls: [roll], readyMedia: ["\(paperWidth.millimetreFigure) mm roll"],
            trims: cutter == .none ? [] : [.afterPages, .afterDocuments, .afterCopies, .afterJob],
            rawProfile: self)
    }

    /// Left and right margins around the shortest printable width that covers
    /// `printableDots` at the head's pitch, split evenly (the odd hundredth on
    /// the right). The shortest such width is the one whose part dot is
    /// nearest zero, so rounding down can never lose a dot.
    public var printableMargins: Margins {
        let pitch = DotPitch(dpi: dpi)
        let printable: Int
        if let perMillimetre = pitch.dotsPerMillimetre {
            printable = (printableDots * 100 + perMillimetre - 1) / perMillimetre
        } else {
            printable = (printableDots * 2540 + dpi - 1) / dpi
        }
        let total = max(0, paperWidth.hundredthsOfMillimetre - printable)
        return Margins(left: Length(hundredthsOfMillimetre: total / 2),
                       right: Length(hundredthsOfMillimetre: total - total / 2))
    }
}
