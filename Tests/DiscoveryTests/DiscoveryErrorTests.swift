import Foundation
import Testing
@testable import Discovery

/// The messages an administrator reads when discovery cannot run.
@Suite struct DiscoveryErrorTests {
    // Avahi's error numbers (avahi-common/error.h), spelled out.
    static let noDaemon: Int32 = -26, dbusError: Int32 = -22, disconnected: Int32 = -23, timeout: Int32 = -15

    @Test func avahiCodesMapToWhatTheAdministratorCanActOn() {
        let up: (String) -> Bool = { _ in true }, down: (String) -> Bool = { _ in false }
        let bus = "unix:path=/run/dbus/system_bus_socket"
        #expect(DiscoveryError(avahiCode: Self.noDaemon, operation: "x", busAddress: bus, busIsReachable: up)
                == .daemonNotRunning)
        #expect(DiscoveryError(avahiCode: Self.noDaemon, operation: "x", busAddress: bus, busIsReachable: down)
                == .busUnreachable(busAddress: bus), "avahi-client says NO_DAEMON when the bus is missing too")
        #expect(DiscoveryError(avahiCode: Self.dbusError, operation: "x", busAddress: bus, busIsReachable: down)
                == .busUnreachable(busAddress: bus))
        #expect(DiscoveryError(avahiCode: Self.dbusError, operation: "x", busAddress: bus, busIsReachable: up)
                == .avahi(operation: "x", code: Self.dbusError, message: "An unexpected D-Bus error occurred"))
        #expect(DiscoveryError(avahiCode: Self.disconnected, operation: "x") == .disconnected)
        let other = DiscoveryError(avahiCode: Self.timeout, operation: "resolving Till 3")
        #expect(other == .avahi(operation: "resolving Till 3", code: Self.timeout, message: "Timeout reached"))
        #expect(other.description.contains("resolving Till 3"))
        #expect(other.description.contains("Timeout reached"))
    }

    @Test func theNoDaemonMessageSaysHowToStartItAndHowToDoWithout() {
        let text = DiscoveryError.daemonNotRunning.description
        #expect(text.contains("avahi-daemon is not running"))
        #expect(text.contains("sudo systemctl start avahi-daemon"))
        #expect(text.contains("avahi-daemon -D"))
        #expect(text.contains("kioskprint printers add ipp://HOST:631/ipp/print --role ROLE"))
    }

    @Test func aSocketNobodyListensOnIsAnUnreachableBus() {
        #expect(!SystemBus.isReachable("unix:path=/tmp/kioskprint-nothing-here-\(uniqueSuffix())"))
        #expect(SystemBus.isReachable("tcp:host=localhost,port=1"), "other transports are not judged")
    }

    @Test func theBusMessageNamesTheAddressTried() {
        let text = DiscoveryError.busUnreachable(busAddress: "unix:path=/nowhere").description
        #expect(text.contains("unix:path=/nowhere"))
        #expect(text.contains("DBUS_SYSTEM_BUS_ADDRESS"))
        #expect(text.contains("printers add"))
    }
}
