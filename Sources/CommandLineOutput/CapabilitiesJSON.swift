package import PrintModel

/// What a saved printer can do, as `printers list --json` and `printers check
/// --json` give it to scripts: the figures a job is drawn for, in the units
/// IPP uses (lengths in hundredths of a millimetre, dots at the head's pitch).
package struct CapabilitiesJSON: Encodable {
    package struct Roll: Encodable {
        var width: Int
        var printableWidth: Int
        /// Dots across the printable width at the printer's resolution.
        var printableDots: Int?
        var cutFrom: Int
        var cutTo: Int
        var source: String?
    }

    package struct Size: Encodable {
        var name: String?
        var width: Int
        var length: Int
    }

    /// A raw printer's profile, and its drawer as last read.
    package struct Raw: Encodable {
        var make: String
        var model: String
        /// `escpos` or `zpl`.
        var language: String
        /// `receipt` or `label`.
        var kind: String
        var paperWidth: Int
        var printableDots: Int
        var dpi: Int
        /// `none`, `partial`, `full` or `both`.
        var cutter: String
        /// `pin2`, `pin5`; empty: no drawer port.
        var drawerPins: [String]
        /// `open` or `closed` at the last contact; absent when not known.
        var drawer: String?
        var nearEndSensor: Bool
        /// Where the figures come from (a data sheet, or the options given at add).
        var source: String

        init(_ profile: RawProfile, drawerOpen: Bool?) {
            make = profile.make; model = profile.model
            language = profile.language.rawValue; kind = profile.kind.rawValue
            paperWidth = profile.paperWidth.hundredthsOfMillimetre
            printableDots = profile.printableDots; dpi = profile.dpi
            cutter = profile.cutter.rawValue
            drawerPins = profile.drawerPins.sorted().map(\.rawValue)
            drawer = drawerOpen.map { $0 ? "open" : "closed" }
            nearEndSensor = profile.nearEndSensor
            source = profile.source
        }
    }

    package var resolution: Int?
    package var rolls: [Roll]
    package var sizes: [Size]
    package var formats: [String]
    package var cutter: [String]
    package var color: Bool
    /// Set for a raw printer (ESC/POS, ZPL) only.
    package var raw: Raw?

    package init(_ capabilities: PrinterCapabilities) {
        let native = capabilities.resolutions.native
        resolution = native?.horizontal
        rolls = capabilities.rolls.map { roll in
            let dots = native.map { PageGeometry(roll: roll, resolution: $0).printableDots(pageLength: roll.cutLengths.lowerBound).width }
            return Roll(width: roll.width.hundredthsOfMillimetre, printableWidth: roll.printableWidth.hundredthsOfMillimetre,
                        printableDots: dots, cutFrom: roll.cutLengths.lowerBound.hundredthsOfMillimetre,
                        cutTo: roll.cutLengths.upperBound.hundredthsOfMillimetre, source: roll.source)
        }
        sizes = capabilities.sheets.map { Size(name: $0.name, width: $0.width.hundredthsOfMillimetre, length: $0.length.hundredthsOfMillimetre) }
        formats = capabilities.documentFormats
        cutter = capabilities.trims.map(\.description)
        color = capabilities.color
        raw = capabilities.rawProfile.map { Raw($0, drawerOpen: capabilities.drawerOpen) }
    }
}
