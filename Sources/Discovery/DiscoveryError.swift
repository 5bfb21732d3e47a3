import CAvahi
import Foundation

/// Why discovery could not run, worded for the administrator at the kiosk:
/// what happened and what to do about it.
public enum DiscoveryError: Error, Equatable, CustomStringConvertible {
    /// The D-Bus system bus answered, but nobody owns Avahi's name on it:
    /// avahi-daemon is not running (`AVAHI_ERR_NO_DAEMON`).
    case daemonNotRunning
    /// The D-Bus system bus itself could not be reached. `busAddress` is the
    /// address that was tried.
    case busUnreachable(busAddress: String)
    /// The connection to avahi-daemon broke while browsing: it stopped or restarted.
    case disconnected
    /// Any other Avahi failure: `operation` names what we were doing, `code`
    /// is Avahi's error number and `message` its own text (`avahi_strerror`).
    case avahi(operation: String, code: Int32, message: String)
    /// The operating system refused a resource discovery needs (a pipe, a thread).
    case system(operation: String, errno: Int32)

    /// Maps an Avahi error number to the case the administrator can act on.
    /// Avahi says "no daemon" when the bus is missing too, so for the two
    /// connection errors `busIsReachable` tells which it is.
    init(avahiCode code: Int32, operation: String,
         busAddress: String = SystemBus.address,
         busIsReachable: (String) -> Bool = { SystemBus.isReachable($0) }) {
        switch code {
        case Int32(AVAHI_ERR_NO_DAEMON):
            self = busIsReachable(busAddress) ? .daemonNotRunning : .busUnreachable(busAddress: busAddress)
        case Int32(AVAHI_ERR_DBUS_ERROR) where !busIsReachable(busAddress):
            self = .busUnreachable(busAddress: busAddress)
        case Int32(AVAHI_ERR_DISCONNECTED):
            self = .disconnected
        default:
            self = .avahi(operation: operation, code: code, message: String(cString: avahi_strerror(code)))
        }
    }

    /// What to tell someone who has no discovery: the printer can be added by hand.
    private static let addByURI =
        "A printer can still be added without discovery, by its URI: "
        + "`kioskprint printers add ipp://HOST:631/ipp/print --role ROLE`."

    public var description: String {
        switch self {
        case .daemonNotRunning:
            return "avahi-daemon is not running, so printers on the network cannot be discovered. "
                + "Start it with `sudo systemctl start avahi-daemon` (or `sudo avahi-daemon -D`) and try again. "
                + DiscoveryError.addByURI
        case .busUnreachable(let address):
            return "The D-Bus system bus (\(address)) cannot be reached, so avahi-daemon cannot be asked for printers. "
                + "Start D-Bus with `sudo systemctl start dbus`, or check DBUS_SYSTEM_BUS_ADDRESS, and try again. "
                + DiscoveryError.addByURI
        case .disconnected:
            return "The connection to avahi-daemon was lost while browsing: it stopped or restarted. "
                + "Check it with `systemctl status avahi-daemon` and browse again."
        case .avahi(let operation, let code, let message):
            return "Avahi failed while \(operation): \(message) (error \(code)). "
                + "Check `systemctl status avahi-daemon` and browse again. " + DiscoveryError.addByURI
        case .system(let operation, let errno):
            return "Discovery could not \(operation): \(String(cString: strerror(errno))) (errno \(errno))."
        }
    }
}
