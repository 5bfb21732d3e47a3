import Foundation
import Glibc

/// Where the D-Bus system bus is, and whether anything answers there.
///
/// avahi-client 0.8 reports a missing bus and a missing daemon alike, as
/// AVAHI_ERR_NO_DAEMON (measured: a DBUS_SYSTEM_BUS_ADDRESS naming a socket
/// that does not exist gives NO_DAEMON, not DBUS_ERROR). The administrator
/// must start different things in the two cases, so on that error we look
/// at the bus ourselves.
enum SystemBus {
    /// The address libdbus uses: DBUS_SYSTEM_BUS_ADDRESS, else its built-in
    /// default. (libdbus reads the variable once per process, at the first
    /// system-bus connection; a later change is not seen by Avahi clients.)
    static var address: String {
        if let address = ProcessInfo.processInfo.environment["DBUS_SYSTEM_BUS_ADDRESS"], !address.isEmpty {
            return address
        }
        return "unix:path=/run/dbus/system_bus_socket"
    }

    /// False only when every `unix:path=` address of `address` refuses a
    /// connection. Other transports (tcp, abstract sockets) are assumed to
    /// answer: a wrong guess then only gives the daemon message instead.
    static func isReachable(_ address: String = SystemBus.address) -> Bool {
        let paths = address.split(separator: ";").compactMap { entry -> String? in
            guard entry.hasPrefix("unix:") else { return nil }
            let keys = entry.dropFirst(5).split(separator: ",")
            return keys.first { $0.hasPrefix("path=") }.map { String($0.dropFirst(5)) }
        }
        let others = address.split(separator: ";").count - paths.count
        return others > 0 || paths.contains(where: acceptsConnection)
    }

    private static func acceptsConnection(_ path: String) -> Bool {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return true }  // cannot tell: do not blame the bus
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return false }
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            buffer.copyBytes(from: bytes)
        }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        return result == 0
    }
}
