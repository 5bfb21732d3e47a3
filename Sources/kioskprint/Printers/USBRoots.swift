import Foundation
import RawPrinters

extension USBPrinterDirectory {
    /// Where the command line looks for USB printers: `/sys` and `/dev`,
    /// unless a test moves them. `KIOSKPRINT_SYSFS_ROOT` and
    /// `KIOSKPRINT_DEVICE_ROOT` are test hooks (a machine without a USB
    /// printer gets a fake sysfs tree in a temporary folder), not settings
    /// for a real installation.
    static var fromEnvironment: USBPrinterDirectory {
        let environment = ProcessInfo.processInfo.environment
        return USBPrinterDirectory(sysfsRoot: environment["KIOSKPRINT_SYSFS_ROOT"] ?? "/sys",
                                   deviceRoot: environment["KIOSKPRINT_DEVICE_ROOT"] ?? "/dev")
    }
}
