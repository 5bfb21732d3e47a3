extension PrinterCapabilities {
    /// Guesses the job kinds of a printer that names none, from the media it
    /// reports. Used only when neither `printer-kind` nor the DNS-SD `kind`
    /// key says; the result is marked `.inferred`.
    ///
    /// - a roll is a roll printer; one up to 112 mm wide (the widest common
    ///   receipt roll) is a receipt printer as well;
    /// - sheets whose type or PWG name says label make a label printer;
    /// - envelope sizes (`na_number-10`, `iso_dl`, `*env*`) add envelope;
    /// - ordinary sheets (A4, Letter and the like) make a document printer.
    public static func inferKinds(rolls: [RollMedia], sheets: [SheetMedia]) -> Set<JobKind> {
        var kinds: Set<JobKind> = []
        for roll in rolls {
            kinds.insert(.roll)
            if roll.width <= .millimetres(112) { kinds.insert(.receipt) }
        }
        for sheet in sheets {
            let name = (sheet.name ?? "").lowercased()
            let type = (sheet.type ?? "").lowercased()
            if type.contains("label") || name.contains("label") {
                kinds.insert(.label)
            } else if name.contains("env") || name.hasPrefix("na_number-10") || name.hasPrefix("iso_dl")
                        || name.hasPrefix("iso_c5") || name.hasPrefix("na_monarch") {
                kinds.insert(.envelope)
            } else if name.contains("postcard") || name.hasPrefix("jpn_hagaki") {
                kinds.insert(.postcard)
            } else if type.contains("photo") {
                kinds.insert(.photo)
            } else if sheet.width > .millimetres(440) {
                kinds.insert(.largeFormat)
            } else {
                kinds.insert(.document)
            }
        }
        return kinds
    }
}
