/// The one way in: a raw printer's URI to an open link of the right kind.
public enum RawLinks {
    /// Opens the printer at `uri`: connects a socket, sets up a serial line,
    /// or finds the USB printer with the URI's make, model and serial number
    /// among those connected (`usbPrinters` says where to look) and opens its
    /// node. Never blocks past `deadline`; every error names the URI.
    public static func open(_ uri: RawPrinterURI, deadline: ContinuousClock.Instant,
                            usbPrinters: USBPrinterDirectory = USBPrinterDirectory()) throws(LinkError) -> any PrinterLink {
        switch uri {
        case .socket(let host, let port):
            return try TCPLink.connect(host: host, port: port, deadline: deadline)
        case .serial(let path, let settings):
            return try SerialLink.open(path: path, settings: settings)
        case .usb(let identity):
            let printer = try usbPrinters.find(identity, for: uri)
            return try USBLink.open(printer, uri: uri)
        }
    }
}
