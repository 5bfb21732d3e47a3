import Logging
import NIOCore
import NIOPosix
import PrintModel
import RolePrinters
import Synchronization
import KioskConfiguration

/// One role's raw printer: a TCP listener that takes what a till writes to a
/// printer's port 9100. Each connection is read in a task of its own; a
/// client outside `raw-clients` is closed before a byte is read, and at most
/// ``maxConnections`` are served at once (a till opens one).
struct RawRoleListener: Sendable {
    let role: Role
    let settings: RawListenSettings
    let keeper: RawJobKeeper
    let status: RoleStatus
    let logger: Logger

    static let maxConnections = 8
    /// A connection that sends nothing for this long is closed.
    static let idleLimit = Duration.seconds(300)
    /// The most one job may be: the passthrough limit.
    static let maxJobBytes = 10 * 1_048_576

    /// What the pipeline hands the connection's task: bytes, or a pause of the role's gap.
    enum Inbound: Sendable { case bytes(ByteBuffer), gap }

    /// Binds, calls `onListening` with the port, and serves until cancelled.
    func run(group: any EventLoopGroup, onListening: @escaping @Sendable (Int) -> Void) async throws {
        let gap = TimeAmount.nanoseconds(Int64(settings.jobGap.components.seconds) * 1_000_000_000
                                         + settings.jobGap.components.attoseconds / 1_000_000_000)
        let open = OpenConnections()
        let (settings, logger, role) = (settings, logger, role)
        let server = try await ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 16)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.allowRemoteHalfClosure, value: true)
            .bind(host: settings.listen.host, port: settings.listen.port) { channel in
                channel.eventLoop.makeCompletedFuture { () throws -> NIOAsyncChannel<Inbound, ByteBuffer>? in
                    let peer = channel.remoteAddress
                    guard let address = peer?.ipAddress.flatMap(IPAddressText.bytes), settings.admits(address) else {
                        let message = "Raw printer \(role): a connection from \(peer?.ipAddress ?? "an unknown address") was refused: "
                            + "it is not in raw-clients (\(settings.clients.map(\.description).joined(separator: ", "))). "
                            + "Add its network to [role.\(role)] raw-clients if it is a till of this shop."
                        logger.warning("\(message)")
                        // Closed here, before a byte is read; the listener goes on (an error would end its stream).
                        channel.close(mode: .all, promise: nil)
                        return nil
                    }
                    try channel.pipeline.syncOperations.addHandler(IdleStateHandler(readTimeout: gap))
                    try channel.pipeline.syncOperations.addHandler(GapMarker())
                    return try NIOAsyncChannel<Inbound, ByteBuffer>(
                        wrappingChannelSynchronously: channel,
                        configuration: .init(isOutboundHalfClosureEnabled: true))
                }
            }
        onListening(server.channel.localAddress?.port ?? settings.listen.port)
        try await withThrowingDiscardingTaskGroup { tasks in
            try await server.executeThenClose { connections in
                for try await connection in connections {
                    guard let connection else { continue }
                    guard open.count.add(1, ordering: .relaxed).newValue <= Self.maxConnections else {
                        open.count.subtract(1, ordering: .relaxed)
                        let message = "Raw printer \(role): a connection from \(connection.channel.remoteAddress?.ipAddress ?? "?") "
                            + "was closed: \(Self.maxConnections) are open already, more than tills keep."
                        logger.warning("\(message)")
                        try? await connection.channel.close()
                        continue
                    }
                    tasks.addTask {
                        defer { open.count.subtract(1, ordering: .relaxed) }
                        await serve(connection)
                    }
                }
            }
        }
    }

    /// Reads one connection to its end: answers as they are asked, a job at each gap and at the end.
    private func serve(_ connection: NIOAsyncChannel<Inbound, ByteBuffer>) async {
        let client = connection.channel.remoteAddress?.ipAddress ?? "a client"
        let port = connection.channel.localAddress?.port ?? settings.listen.port
        let snapshot = await status.snapshot(of: role)
        guard let language = snapshot.language, HostStream.serves(language) else {
            let why = snapshot.language.map { "its printer speaks \($0), and the raw port serves ESC/POS and ZPL clients only" }
            let message = "Raw printer \(role): the connection from \(client) was closed unread: "
                + "\(why ?? snapshot.problem ?? "no language"). Give the role a printer that speaks ESC/POS or ZPL, "
                + "or remove raw-listen from [role.\(role)]" + (snapshot.language == nil ? "." : " and let the tills print "
                + "through WebPRNT, ePOS-Print or IPP, which reach a Star printer in its own language.")
            logger.error("\(message)")
            RawJobCount.refused(role)
            try? await connection.channel.close()
            return
        }
        var session = RawConnection(role: role, language: language, client: client, port: port, keeper: keeper, status: status,
                                    logger: logger, maxBytes: Self.maxJobBytes)
        let gapsBeforeClosing = max(1, Int(Self.idleLimit / settings.jobGap))
        do {
            try await connection.executeThenClose { inbound, outbound in
                var quietGaps = 0
                for try await event in inbound {
                    switch event {
                    case .bytes(let buffer):
                        quietGaps = 0
                        let (answers, next) = await session.receive(buffer.readableBytesView)
                        if !answers.isEmpty { try await outbound.write(ByteBuffer(bytes: answers)) }
                        if next == .close { return }
                    case .gap:
                        await session.endJob()
                        let change = await session.automaticStatusChange()
                        if !change.isEmpty { try await outbound.write(ByteBuffer(bytes: change)) }
                        quietGaps += 1
                        if quietGaps >= gapsBeforeClosing { return }
                    }
                }
                // The client closed its side: the job is queued before this side closes.
                await session.endJob(closing: true)
            }
        } catch {
            // A reset connection: what arrived is still a job, as a printer would have printed it.
            await session.endJob(closing: true)
            logger.info("Raw printer \(role): the connection from \(client) ended with \(error).")
        }
    }
}

/// The connections a listener serves now, shared by its accepting loop and each connection's task.
final class OpenConnections: Sendable {
    let count = Atomic<Int>(0)
}

/// Turns the pipeline's bytes, and IdleStateHandler's "nothing read for the
/// gap", into the connection task's one stream of events.
final class GapMarker: ChannelInboundHandler, Sendable {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = RawRoleListener.Inbound

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        context.fireChannelRead(wrapInboundOut(.bytes(unwrapInboundIn(data))))
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let idle = event as? IdleStateHandler.IdleStateEvent, idle == .read {
            context.fireChannelRead(wrapInboundOut(.gap))
            // NIOAsyncChannel hands reads on at a read's completion: without it the gap would wait for the next bytes.
            context.fireChannelReadComplete()
        } else {
            context.fireUserInboundEventTriggered(event)
        }
    }
}
