public import PrinterLanguages
public import PrintModel
public import RawPrinters

/// A USB printer-class device plugged into this machine, as `printers
/// discover` lists it beside the network's printers: its 1284 device ID,
/// the language its `CMD:` names and, when the catalog knows its `MDL:`, the model.
public struct LocalPrinterListing: Sendable, Hashable {
    /// The device as usblp shows it.
    public var printer: LocalUSBPrinter
    /// The language of its catalog model, else the first language of its
    /// `CMD:` list that KioskPrint drives; nil when neither says. (A Star
    /// printer's `CMD:STAR` names none of Star's languages: its model does.)
    public var language: PrinterLanguage?
    /// The catalog entry its `MDL:` names, nil when the catalog does not know it.
    public var catalogEntry: CatalogEntry?

    public init(printer: LocalUSBPrinter) {
        self.printer = printer
        catalogEntry = printer.deviceID.model.flatMap { ModelCatalog.entry(deviceModel: $0) }
        language = catalogEntry?.profile.language ?? printer.languages.first
    }

    /// `usb://EPSON/TM-T88VI?serial=X5K1234567`: what `printers add` takes.
    public var uri: String { printer.uri.description }

    /// `Epson TM-T88VI`, else the make and model the device gives.
    public var makeAndModel: String {
        catalogEntry?.profile.makeAndModel ?? "\(printer.identity.make) \(printer.identity.model)"
    }

    /// What to do next: `printers add` works without --model for a catalog model.
    public var note: String {
        if catalogEntry != nil { return "in the catalog" }
        return language == nil ? "speaks no language KioskPrint drives" : "model unknown: add it with --model"
    }

    /// Every USB printer connected now, in node order.
    public static func connected(in directory: USBPrinterDirectory = USBPrinterDirectory()) -> [LocalPrinterListing] {
        directory.connectedPrinters().map(LocalPrinterListing.init)
    }
}
