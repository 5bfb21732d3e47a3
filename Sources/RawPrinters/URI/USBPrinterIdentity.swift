/// Who a USB printer is, independent of the port it is plugged into: make,
/// model and serial number, as CUPS's usb backend writes them into
/// `usb://MAKE/MODEL?serial=SERIAL`. The `/dev/usb/lpN` node is not part of
/// it: nodes are numbered in the order printers appear, which changes with
/// every reboot or replugging.
public struct USBPrinterIdentity: Sendable, Hashable {
    /// `EPSON`, `Zebra Technologies`.
    public var make: String
    /// The model without the make in front: `TM-T88VI`.
    public var model: String
    /// Nil when the URI has none: then any printer of that make and model
    /// matches, as long as only one is connected.
    public var serialNumber: String?
    /// The USB interface number CUPS's libusb backend adds when it is not 0.
    /// Kept so the URI prints back as written; it plays no part in matching.
    public var interface: Int?

    public init(make: String, model: String, serialNumber: String? = nil, interface: Int? = nil) {
        self.make = make
        self.model = model
        self.serialNumber = serialNumber
        self.interface = interface
    }

    /// The identity CUPS derives from a printer's device ID (usb-libusb.c,
    /// make_device_uri): `Hewlett-Packard` and `Lexmark International`
    /// shortened, the make taken off the front of the model, and the serial
    /// number from the ID or else from the USB device itself. Nil when the
    /// ID names no make and no model.
    public init?(deviceID: DeviceID, usbSerialNumber: String? = nil) {
        let model = deviceID.model ?? deviceID.printerDescription
        guard var make = deviceID.manufacturer ?? model?.split(separator: " ").first.map(String.init) else { return nil }
        switch make.lowercased() {
        case "hewlett-packard": make = "HP"
        case "lexmark international": make = "Lexmark"
        default: break
        }
        var shortModel = model ?? "Unknown Model"
        if shortModel.count > make.count, shortModel.lowercased().hasPrefix(make.lowercased()),
           shortModel.dropFirst(make.count).first?.isWhitespace == true {
            shortModel = shortModel.dropFirst(make.count).trimmingWhitespace()
        }
        let serial = deviceID.serialNumber ?? usbSerialNumber.map { $0.trimmingWhitespace() }
        self.init(make: make, model: shortModel, serialNumber: serial?.isEmpty == false ? serial : nil)
    }

    /// True when `other` is the same printer: make and model alike but for
    /// case and surrounding spaces, and the same serial number when this
    /// identity has one.
    public func matches(_ other: USBPrinterIdentity) -> Bool {
        guard Self.same(make, other.make), Self.same(model, other.model) else { return false }
        guard let serialNumber else { return true }
        return other.serialNumber.map { $0.trimmingWhitespace() == serialNumber.trimmingWhitespace() } ?? false
    }

    /// `EPSON TM-T88VI (serial X5K1234567)`, as messages name the printer.
    public var summary: String {
        "\(make) \(model)" + (serialNumber.map { " (serial \($0))" } ?? "")
    }

    private static func same(_ a: String, _ b: String) -> Bool {
        a.trimmingWhitespace().lowercased() == b.trimmingWhitespace().lowercased()
    }
}
