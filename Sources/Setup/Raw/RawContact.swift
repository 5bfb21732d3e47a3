import Foundation
import PrinterLanguages
import RawPrinters
import PrintModel

/// "Contacting" a raw printer: it answers no Get-Printer-Attributes, so its
/// capabilities come from its profile and only its status is asked, in its
/// own language (ESC/POS `DLE EOT`, ZPL `~HS`). The answer goes into the same
/// state and reasons an IPP printer's would, so `add`, `check` and the picker
/// treat both kinds alike.
enum RawContact {
    /// `capabilities` with the state, reasons and drawer switch read now. A
    /// link that only writes (a USB printer without a back channel) says
    /// nothing: the printer counts as idle.
    static func contact(uri: RawPrinterURI, capabilities: PrinterCapabilities, profile: RawProfile,
                        timeout: Duration, usbPrinters: USBPrinterDirectory) async throws(RawPrintError) -> PrinterCapabilities {
        let session = RawPrinterSession(uri: uri, profile: profile, name: capabilities.name, timeout: timeout,
                                        usbPrinters: usbPrinters)
        var answered = capabilities
        let status = try await session.status()
        answered.state = status?.printerState ?? .idle
        answered.stateReasons = status?.reasons ?? []
        answered.drawerOpen = status?.drawerOpen
        return answered
    }

    /// True for the raw schemes (`socket`, `usb`, `serial`), whatever else the URI holds.
    static func isRaw(_ uri: String) -> Bool {
        let scheme = uri.trimmingCharacters(in: .whitespaces).prefix { $0 != ":" }.lowercased()
        return RawPrinterURI.Scheme(rawValue: scheme) != nil
    }

    /// The name a raw printer is listed under when DNS-SD gave none: its
    /// model and where it is (`Epson TM-T20III at 192.168.1.50:9100`).
    static func name(for profile: RawProfile, at uri: RawPrinterURI) -> String {
        switch uri {
        case .socket(let host, let port):
            return "\(profile.makeAndModel) at \(host.contains(":") ? "[\(host)]" : host):\(port)"
        case .usb(let identity):
            return "\(profile.makeAndModel) on USB" + (identity.serialNumber.map { " (serial \($0))" } ?? "")
        case .serial(let path, _):
            return "\(profile.makeAndModel) on \(path)"
        }
    }
}
