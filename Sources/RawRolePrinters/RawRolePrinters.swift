public import KioskConfiguration
public import Logging
import NIOCore
import NIOPosix
public import PrintModel

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
        guard !roles.isEmpty else { return }
        let loops = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        await withDiscardingTaskGroup { group in
            for (role, settings) in roles {
                let listener = RawRoleListener(role: role, settings: settings, keeper: keeper, status: status, logger: logger)
                group.addTask {
                    do {
                        try await listener.run(group: loops) { port in
                            logger.info("Raw printer \(role) listens on \(settings.listen.host):\(port).")
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
