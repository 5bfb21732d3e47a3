import Foundation
import Glibc
import RawPrinters

/// A temporary /sys and /dev laid out as the kernel lays out usblp printers,
/// the stand-in for USB hardware this machine cannot have:
///
///     sys/devices/pci0000:00/0000:00:14.0/usb1/1-N/serial
///     sys/devices/pci0000:00/0000:00:14.0/usb1/1-N/1-N:1.0/ieee1284_id
///     sys/class/usbmisc/lpK/device -> ../../../devices/.../1-N/1-N:1.0   (a symlink)
///     sys/class/usbmisc/lpK/uevent  (DEVNAME=usb/lpK)
///     dev/usb/lpK
final class SysfsTree {
    let root: String
    var directory: USBPrinterDirectory { USBPrinterDirectory(sysfsRoot: root + "/sys", deviceRoot: root + "/dev") }

    init() throws {
        root = FileManager.default.temporaryDirectory.path + "/kioskprint-usb-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: root + "/sys/class/usbmisc", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: root + "/dev/usb", withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: root) }

    /// Plugs a printer into USB port `port` and names its node lp`number`.
    /// `node` is what /dev/usb/lpN points to (a pseudo-terminal, say); a
    /// regular file when nil.
    func plug(number: Int, port: Int, deviceID: String, usbSerial: String? = nil, node: String? = nil) throws {
        let usbDevice = root + "/sys/devices/pci0000:00/0000:00:14.0/usb1/1-\(port)"
        let interface = usbDevice + "/1-\(port):1.0"
        try FileManager.default.createDirectory(atPath: interface, withIntermediateDirectories: true)
        try (deviceID + "\n").write(toFile: interface + "/ieee1284_id", atomically: false, encoding: .utf8)
        if let usbSerial { try (usbSerial + "\n").write(toFile: usbDevice + "/serial", atomically: false, encoding: .utf8) }
        let entry = root + "/sys/class/usbmisc/lp\(number)"
        try FileManager.default.createDirectory(atPath: entry, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: entry + "/device",
            withDestinationPath: "../../../devices/pci0000:00/0000:00:14.0/usb1/1-\(port)/1-\(port):1.0")
        try "MAJOR=180\nMINOR=\(number)\nDEVNAME=usb/lp\(number)\n".write(toFile: entry + "/uevent", atomically: false,
                                                                          encoding: .utf8)
        let nodePath = root + "/dev/usb/lp\(number)"
        if let node {
            try FileManager.default.createSymbolicLink(atPath: nodePath, withDestinationPath: node)
        } else {
            _ = FileManager.default.createFile(atPath: nodePath, contents: Data())
        }
    }

    /// Unplugs everything: the class entries, devices and nodes go.
    func unplugAll() throws {
        for folder in ["/sys/class/usbmisc", "/sys/devices", "/dev/usb"] {
            try? FileManager.default.removeItem(atPath: root + folder)
            try FileManager.default.createDirectory(atPath: root + folder, withIntermediateDirectories: true)
        }
    }

    func node(_ number: Int) -> String { root + "/dev/usb/lp\(number)" }
}
