internal import CRawIO
import Glibc

/// A USB printer-class device through the kernel's usblp driver
/// (`/dev/usb/lpN`). Reads carry what the printer sends back (status
/// answers) when it is bidirectional.
public final class USBLink: PrinterLink {
    public let uri: RawPrinterURI
    /// The node it was opened at.
    public let node: String
    /// The device ID the printer gave when opened (LPIOC_GET_DEVICE_ID);
    /// nil when the driver gave none.
    public let deviceID: DeviceID?
    /// False when the node could only be opened write-only: reads then throw `.readNotSupported`.
    public let canRead: Bool
    private let descriptor: PollingDescriptor

    /// Opens a printer found by `USBPrinterDirectory`. When the printer's own
    /// device ID names another printer (the nodes were renumbered between
    /// the look and the open), throws `.usbPrinterNotConnected`.
    public static func open(_ printer: LocalUSBPrinter, uri: RawPrinterURI) throws(LinkError) -> USBLink {
        let link = try open(node: printer.node, uri: uri)
        if let id = link.deviceID, case .usb(let wanted) = uri,
           let identity = USBPrinterIdentity(deviceID: id, usbSerialNumber: printer.identity.serialNumber),
           !wanted.matches(identity) {
            link.close()
            let found = LocalUSBPrinter(node: printer.node, deviceID: id, identity: identity)
            throw LinkError(uri: uri, reason: .usbPrinterNotConnected(connected: [found]))
        }
        return link
    }

    /// Opens `node` read-write, or write-only when reading is not allowed
    /// (as CUPS's usb backend falls back), non-blocking, and reads the
    /// device ID. `uri` is what errors name.
    public static func open(node: String, uri: RawPrinterURI) throws(LinkError) -> USBLink {
        var canRead = true
        var fd = Glibc.open(node, O_RDWR | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        if fd < 0 && (errno == EACCES || errno == EPERM || errno == EROFS) {
            fd = Glibc.open(node, O_WRONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
            canRead = false
        }
        guard fd >= 0 else { throw LinkError(uri: uri, reason: openFailure(errno, path: node)) }
        let deviceID = readDeviceID(fd)
        let descriptor = try PollingDescriptor(fd: fd, kind: .device, uri: uri)
        return USBLink(uri: uri, node: node, deviceID: deviceID, canRead: canRead, descriptor: descriptor)
    }

    private init(uri: RawPrinterURI, node: String, deviceID: DeviceID?, canRead: Bool, descriptor: PollingDescriptor) {
        self.uri = uri
        self.node = node
        self.deviceID = deviceID
        self.canRead = canRead
        self.descriptor = descriptor
    }

    public func write(_ bytes: [UInt8], stallWindow: Duration) throws(LinkError) {
        try descriptor.write(bytes, stallWindow: stallWindow)
    }

    public func unsentBytes() -> Int? { descriptor.unsentBytes() }

    public func read(atMost count: Int, deadline: ContinuousClock.Instant) throws(LinkError) -> [UInt8] {
        guard canRead else { throw LinkError(uri: uri, reason: .readNotSupported(path: node)) }
        return try descriptor.read(atMost: count, deadline: deadline)
    }

    public func close() { descriptor.close() }

    /// The usblp ioctl; nil on anything that is not a usblp node (ENOTTY) or gives no ID.
    private static func readDeviceID(_ fd: Int32) -> DeviceID? {
        var buffer = [UInt8](repeating: 0, count: 1024)
        let result = buffer.withUnsafeMutableBufferPointer { kp_lp_get_device_id(fd, $0.baseAddress, $0.count) }
        return result == 0 ? DeviceID(lengthPrefixed: buffer) : nil
    }

    /// What an open(2) errno means for a printer's device node.
    static func openFailure(_ code: Int32, path: String) -> LinkError.Reason {
        switch code {
        case ENOENT, ENODEV, ENXIO: .noSuchDevice(path: path)
        case EACCES, EPERM: .permissionDenied(path: path)
        case EBUSY: .deviceBusy(path: path)
        default: .systemError(operation: "opening \(path)", errno: code)
        }
    }
}
