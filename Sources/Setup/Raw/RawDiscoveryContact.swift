import PrinterLanguages
import PrintModel
import RawPrinters

/// Contacting a raw printer found through DNS-SD (`_pdl-datastream._tcp`).
/// Sending it an IPP request would print the request as garbage, so its
/// model is taken from the TXT `product` or `ty` key and looked up in the
/// catalog; only a known model is asked its status, in its own language.
enum RawDiscoveryContact {
    static func contact(_ printer: DiscoveredPrinter, timeout: Duration) async -> PrinterListing.ContactState {
        let uri: RawPrinterURI
        do { uri = try RawPrinterURI(parsing: printer.uri) } catch { return .failed(error.description) }
        let named = [printer.txt.product, printer.txt.makeAndModel].compactMap { $0 }
        guard let entry = named.lazy.compactMap({ ModelCatalog.entry(deviceModel: $0) }).first else {
            let said = named.first.map { " (it calls itself \"\($0)\")" } ?? ""
            return .modelUnknown("\(printer.serviceName) is a raw printer whose model KioskPrint's catalog does not know\(said). "
                + "Add it with its model: kioskprint printers add \(printer.uri) --role ROLE --model MODEL, "
                + "or describe it with --language, --width, --printable and --dpi.")
        }
        let described = entry.profile.capabilities(name: printer.serviceName, location: printer.txt.location ?? "")
        do {
            return .answered(try await RawContact.contact(uri: uri, capabilities: described, profile: entry.profile,
                                                          timeout: timeout, usbPrinters: USBPrinterDirectory()))
        } catch {
            return .failed(error.description)
        }
    }
}
