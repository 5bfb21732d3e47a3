import PrintModel

/// The capabilities the simulated printers (Sources/Simulator/SimulatedPrinter+Presets.swift)
/// produce once their attributes are read, built by hand so the paper and cut
/// decisions are tested without starting a printer.
enum SimulatedMedia {
    static let dpi203 = Resolutions(pwgRaster: [Resolution(203)], printer: [Resolution(203)], preferred: Resolution(203))

    /// 80 mm roll, 4 mm side margins, cut 25 mm to 3 m.
    static let roll80 = RollMedia(width: Length(hundredthsOfMillimetre: 8000),
                                  cutLengths: Length(hundredthsOfMillimetre: 2500)...Length(hundredthsOfMillimetre: 300000),
                                  margins: Margins(left: Length(hundredthsOfMillimetre: 400), right: Length(hundredthsOfMillimetre: 400)),
                                  source: "main-roll", name: "roll_min_80x25mm")
    static let receipt80mm = PrinterCapabilities(
        name: "KioskPrint Receipt 80mm", kinds: [.receipt, .roll], resolutions: dpi203,
        rolls: [roll80], readyMedia: ["80 mm roll"], trims: [.afterPages, .afterDocuments, .afterCopies, .afterJob])

    /// 58 mm roll, 5 mm side margins, cut 20 mm to 1 m.
    static let roll58 = RollMedia(width: Length(hundredthsOfMillimetre: 5800),
                                  cutLengths: Length(hundredthsOfMillimetre: 2000)...Length(hundredthsOfMillimetre: 100000),
                                  margins: Margins(left: Length(hundredthsOfMillimetre: 500), right: Length(hundredthsOfMillimetre: 500)),
                                  source: "main-roll", name: "roll_min_58x20mm")
    static let receipt58mm = PrinterCapabilities(
        name: "KioskPrint Receipt 58mm", kinds: [.receipt, .roll], resolutions: dpi203,
        rolls: [roll58], readyMedia: ["58 mm roll"])

    /// 4x6 in labels, edge to edge.
    static let label4x6Stock = SheetMedia(name: "na_index-4x6_4x6in", width: Length(hundredthsOfMillimetre: 10160),
                                          length: Length(hundredthsOfMillimetre: 15240), source: "main", type: "labels")
    static let label4x6 = PrinterCapabilities(
        name: "KioskPrint Label 4x6", kinds: [.label], resolutions: dpi203,
        sheets: [label4x6Stock], readyMedia: ["na_index-4x6_4x6in"], trims: [.afterPages])

    /// A4 (loaded) and Letter (supported) with 4.23 mm margins, 300 and 600 dpi.
    static let officeMargins = Margins(top: Length(hundredthsOfMillimetre: 423), bottom: Length(hundredthsOfMillimetre: 423),
                                       left: Length(hundredthsOfMillimetre: 423), right: Length(hundredthsOfMillimetre: 423))
    static let a4 = SheetMedia(name: "iso_a4_210x297mm", width: Length(hundredthsOfMillimetre: 21000),
                               length: Length(hundredthsOfMillimetre: 29700), margins: officeMargins,
                               source: "tray-1", type: "stationery")
    static let letter = SheetMedia(name: "na_letter_8.5x11in", width: Length(hundredthsOfMillimetre: 21590),
                                   length: Length(hundredthsOfMillimetre: 27940), margins: officeMargins,
                                   source: "tray-1", type: "stationery")
    static let documentA4 = PrinterCapabilities(
        name: "KioskPrint Office A4", kinds: [.document],
        resolutions: Resolutions(pwgRaster: [Resolution(300), Resolution(600)], printer: [Resolution(300), Resolution(600)],
                                 preferred: Resolution(600)),
        sheets: [a4, letter], readyMedia: ["iso_a4_210x297mm"], color: true, duplex: true)
}
