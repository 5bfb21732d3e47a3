public import PrintModel

/// A USB printer-class device connected to this machine, as usblp shows it.
public struct LocalUSBPrinter: Sendable, Hashable {
    /// Its device node now, such as `/dev/usb/lp0`. It may change when the
    /// printer is plugged in again; save `uri` instead.
    public var node: String
    /// What the printer says about itself.
    public var deviceID: DeviceID
    /// Make, model and serial number, as its `usb://` URI carries them.
    public var identity: USBPrinterIdentity

    public init(node: String, deviceID: DeviceID, identity: USBPrinterIdentity) {
        self.node = node
        self.deviceID = deviceID
        self.identity = identity
    }

    /// The address to save it under: `usb://EPSON/TM-T88VI?serial=X5K1234567`.
    public var uri: RawPrinterURI { .usb(identity) }

    /// The command languages its device ID names.
    public var languages: [PrinterLanguage] { deviceID.languages }
}
