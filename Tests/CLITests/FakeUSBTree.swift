import Foundation

/// A sysfs tree with USB printers in it, as usblp lays it out under
/// `class/usbmisc/lpN`, in a temporary folder: this machine has no USB.
/// The command line reads it through its `KIOSKPRINT_SYSFS_ROOT` test hook.
struct FakeUSBTree {
    let root: URL

    /// One printer per device ID, as lp0, lp1...; `serial` is the USB device's own serial string.
    init(deviceIDs: [(id: String, serial: String?)]) throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("kioskprint-sysfs-\(UUID().uuidString)")
        let classFolder = root.appendingPathComponent("class/usbmisc")
        try FileManager.default.createDirectory(at: classFolder, withIntermediateDirectories: true)
        for (index, printer) in deviceIDs.enumerated() {
            let entry = classFolder.appendingPathComponent("lp\(index)")
            try FileManager.default.createDirectory(at: entry.appendingPathComponent("device"), withIntermediateDirectories: true)
            try printer.id.write(to: entry.appendingPathComponent("device/ieee1284_id"), atomically: true, encoding: .utf8)
            try "DEVNAME=usb/lp\(index)\n".write(to: entry.appendingPathComponent("uevent"), atomically: true, encoding: .utf8)
            // `device/../serial`: here `device` is a plain folder, so its parent is the entry itself.
            if let serial = printer.serial {
                try serial.write(to: entry.appendingPathComponent("serial"), atomically: true, encoding: .utf8)
            }
        }
    }

    /// The environment that points `kioskprint` at this tree, with device nodes under it too.
    var environment: [String: String] {
        ["KIOSKPRINT_SYSFS_ROOT": root.path, "KIOSKPRINT_DEVICE_ROOT": root.appendingPathComponent("dev").path]
    }

    func remove() { try? FileManager.default.removeItem(at: root) }
}
