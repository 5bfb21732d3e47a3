import PrintModel

/// What a saved printer can do, as `printers list --json` and `printers check
/// --json` give it to scripts: the figures a job is drawn for, in the units
/// IPP uses (lengths in hundredths of a millimetre, dots at the head's pitch).
struct CapabilitiesJSON: Encodable {
    struct Roll: Encodable {
        var width: Int
        var printableWidth: Int
        /// Dots across the printable width at the printer's resolution.
        var printableDots: Int?
        var cutFrom: Int
        var cutTo: Int
        var source: String?
    }

    struct Size: Encodable {
        var name: String?
        var width: Int
        var length: Int
    }

    var resolution: Int?
    var rolls: [Roll]
    var sizes: [Size]
    var formats: [String]
    var cutter: [String]
    var color: Bool

    init(_ capabilities: PrinterCapabilities) {
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
    }
}
