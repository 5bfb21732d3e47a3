public import KioskConfiguration
public import Logging
import NIOCore
import Synchronization
import NIOPosix
public import PrintModel
public import RolePrinters

/// The roles served as raw printers (`raw-listen` in `[role.NAME]`): each a
/// TCP port that takes ESC/POS or ZPL as a printer's port 9100 does, in
/// front of the role's queue, failover and exact delivery. One event loop
/// thread serves them all.
public struct RawRolePrinters: Sendable {
    public let roles: [Role: RawListenSettings]
    public let keeper: RawJobKeeper
    public let status: RoleStatus
    public let logger: Logger

    public init(roles: [Role: RawListenSettings], keeper: RawJobKeeper, status: RoleStatus, logger: Logger) {
        self.roles = roles; self.keeper = keeper; self.status = status; self.logger = logger
    }

    public var listenerCount: Int { roles.count }

    /// Serves every role's listener until cancelled. `onListening` is called
    /// once for each, with the role and the port it listens on. A listener
    /// that cannot bind is logged; the others go on.
    public func run(onListening: @escaping @Sendable (Role, Int) -> Void) async {
        let database = keeper.intake.store.path
        guard !roles.isEmpty else {
            RawPrinterRecord.remove(forDatabase: database)
            return
        }
        let loops = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let listening = ListeningRoles()
        await withDiscardingTaskGroup { group in
            for (role, settings) in roles {
                let listener = RawRoleListener(role: role, settings: settings, keeper: keeper, status: status, logger: logger)
                RawJobCount.start(role)
                group.addTask {
                    do {
                        try await listener.run(group: loops) { port in
                            logger.info("Raw printer \(role) listens on \(settings.listen.host):\(port).")
                            let address = ListenAddress(host: settings.listen.host, port: port)
                            listening.add(.init(role: role.description, address: "\(address)",
                                                clients: settings.listen.isLoopback ? [] : settings.clients.map(\.description)))
                                .write(forDatabase: database)
                            onListening(role, port)
                        }
                    } catch is CancellationError {
                    } catch {
                        let message = "Raw printer \(role) is not served: \(settings.listen) could not be listened on (\(error)). "
                            + "If another program holds the port (a CUPS or a printer emulator), give [role.\(role)] raw-listen "
                            + "another port, and reload the agent (systemctl reload kioskprint)."
                        logger.error("\(message)")
                    }
                }
            }
        }
        try? await loops.shutdownGracefully()
    }
}

/// The listeners open so far, for the record `status` reads.
final class ListeningRoles: Sendable {
    private let listeners = Mutex<[RawPrinterRecord.Listener]>([])

    /// Adds `listener`; returns the record of every listener open, in role order.
    func add(_ listener: RawPrinterRecord.Listener) -> RawPrinterRecord {
        listeners.withLock { listeners in
            listeners.append(listener)
            listeners.sort { $0.role < $1.role }
            return RawPrinterRecord(listeners: listeners)
        }
    }
}
