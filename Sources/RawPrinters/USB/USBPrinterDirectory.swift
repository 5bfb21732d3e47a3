import Foundation

/// The USB printers connected to this machine, as the kernel's usblp driver
/// lists them under `/sys/class/usbmisc/lpN`: each with its 1284 device ID
/// (`device/ieee1284_id`), the USB serial number (`device/../serial`) and
/// its node (`/dev/usb/lpN`).
///
/// The roots can be moved so tests can build the same tree in a temporary
/// folder: this machine, like most test machines, has no USB printer.
public struct USBPrinterDirectory: Sendable {
    /// Where sysfs is mounted: `/sys`.
    public var sysfsRoot: String
    /// Where device nodes are: `/dev`.
    public var deviceRoot: String

    public init(sysfsRoot: String = "/sys", deviceRoot: String = "/dev") {
        self.sysfsRoot = sysfsRoot
        self.deviceRoot = deviceRoot
    }

    /// Every connected printer that gives a device ID, in node order (lp0,
    /// lp1, ... lp10). Empty when usblp is not loaded or nothing is plugged in.
    public func connectedPrinters() -> [LocalUSBPrinter] {
        let classFolder = sysfsRoot + "/class/usbmisc"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: classFolder)) ?? []
        let numbered = names.compactMap { name -> (Int, String)? in
            guard name.hasPrefix("lp"), let number = Int(name.dropFirst(2)) else { return nil }
            return (number, name)
        }
        return numbered.sorted { $0.0 < $1.0 }.compactMap { printer(named: $0.1, in: classFolder) }
    }

    /// The connected printer with `identity`'s make, model and (when it has
    /// one) serial number. Throws `.usbPrinterNotConnected`, naming what is
    /// connected instead, or `.usbPrinterAmbiguous` when the identity has no
    /// serial number and more than one printer fits it.
    public func find(_ identity: USBPrinterIdentity, for uri: RawPrinterURI) throws(LinkError) -> LocalUSBPrinter {
        let connected = connectedPrinters()
        let matching = connected.filter { identity.matches($0.identity) }
        guard let first = matching.first else {
            throw LinkError(uri: uri, reason: .usbPrinterNotConnected(connected: connected))
        }
        guard matching.count == 1 else {
            throw LinkError(uri: uri, reason: .usbPrinterAmbiguous(nodes: matching.map(\.node)))
        }
        return first
    }

    private func printer(named name: String, in classFolder: String) -> LocalUSBPrinter? {
        let entry = classFolder + "/" + name
        guard let idText = SysfsFile.read(entry + "/device/ieee1284_id") else { return nil }
        let deviceID = DeviceID(idText)
        // The interface's parent is the USB device, whose serial is the string descriptor CUPS falls back on.
        let usbSerial = SysfsFile.read(entry + "/device/../serial")
        guard let identity = USBPrinterIdentity(deviceID: deviceID, usbSerialNumber: usbSerial) else { return nil }
        return LocalUSBPrinter(node: deviceRoot + "/" + nodeName(of: entry, fallback: "usb/" + name),
                               deviceID: deviceID, identity: identity)
    }

    /// `usb/lp0`: the DEVNAME udev names the node by, from the entry's uevent.
    private func nodeName(of entry: String, fallback: String) -> String {
        guard let uevent = SysfsFile.read(entry + "/uevent") else { return fallback }
        for line in uevent.split(separator: "\n") where line.hasPrefix("DEVNAME=") {
            let name = line.dropFirst("DEVNAME=".count)
            if !name.isEmpty, !name.contains("..") { return String(name) }
        }
        return fallback
    }
}
