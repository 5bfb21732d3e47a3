import Foundation
public import KioskConfiguration
public import Logging
public import PrintModel
package import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import NIOPosix
import NIOSSL
import ServiceLifecycle
import OpenAPIHummingbird
public import RolePrinters
public import Spooler
import Store

/// The local HTTP API that point-of-sale applications use, served by `kioskprint
/// run` beside the spooler and the triggers: on a loopback TCP address
/// (127.0.0.1:9180 by default) and on a Unix socket that only the service's
/// group may open. One router serves both; run it as one of the agent's
/// services (it stops with the agent's graceful shutdown).
public struct APIServer: Sendable {
    public let settings: HTTPSettings
    public let intake: JobIntake
    /// The spooler's events, for `/v1/events`.
    public let journal: EventJournal
    /// The box's name, the status page's title.
    public let box: String
    public let logger: Logger
    /// Writes the agent's metrics in the Prometheus text format, for
    /// `GET /metrics`; nil answers 404 (the agent's caller measures nothing).
    public let metrics: (@Sendable () async -> String)?
    /// The open event streams, ended when their token is revoked.
    let streams = OpenStreams()
    /// What the status page's buttons did, for the page they lead back to.
    let notices = StatusNotices()
    /// The role printers and where they listen; nil when no role is served over IPP.
    public let rolePrinters: RolePrinterServer?
    public let ipp: IPPSettings
    /// The certificate the role printers serve `ipps://` with; nil serves `ipp://`.
    public let rolePrinterCertificate: AgentCertificate?
    /// The roles served over ePOS-Print, by `devid`, on the role printers' listener.
    public let eposDevices: [String: Role]
    public let epos: PosClientSettings
    /// The roles served over Star WebPRNT, on the role printers' listener.
    public let webprntRoles: Set<Role>
    public let webprnt: PosClientSettings
    /// What the ePOS-Print and WebPRNT answers read of a role's printer; nil serves neither.
    public let roleStatus: RoleStatus?

    public init(settings: HTTPSettings, intake: JobIntake, journal: EventJournal, box: String, logger: Logger,
                metrics: (@Sendable () async -> String)? = nil, ipp: IPPSettings = IPPSettings(),
                rolePrinters: RolePrinterServer? = nil, rolePrinterCertificate: AgentCertificate? = nil,
                eposDevices: [String: Role] = [:], epos: PosClientSettings = PosClientSettings(),
                webprntRoles: Set<Role> = [], webprnt: PosClientSettings = PosClientSettings(), roleStatus: RoleStatus? = nil) {
        self.eposDevices = roleStatus == nil ? [:] : eposDevices
        self.epos = epos
        self.webprntRoles = roleStatus == nil ? [] : webprntRoles
        self.webprnt = webprnt
        self.roleStatus = roleStatus
        self.ipp = ipp
        self.rolePrinterCertificate = rolePrinterCertificate
        self.rolePrinters = rolePrinters.flatMap { $0.roles.isEmpty ? nil : $0 }
        self.box = box
        self.settings = settings
        self.intake = intake
        self.journal = journal
        self.logger = logger
        self.metrics = metrics
    }

    /// The socket's path: the configured one; under systemd `api.sock` in the
    /// unit's runtime folder (`/run/kioskprint`, which the group may enter,
    /// unlike the 0700 state folder); otherwise `api.sock` beside the database.
    public var socketPath: String? {
        if settings.socketOff { return nil }
        if let socket = settings.socket { return socket }
        let folder = ProcessInfo.processInfo.environment["RUNTIME_DIRECTORY"]?.split(separator: ":").first.map(String.init)
            ?? (intake.store.path as NSString).deletingLastPathComponent
        return (folder as NSString).appendingPathComponent("api.sock")
    }

    /// How many listeners `run` opens: the TCP address and the socket, as configured.
    public var listenerCount: Int {
        (settings.listen == nil ? 0 : 1) + (socketPath == nil ? 0 : 1) + (servesPrinters ? 1 : 0)
    }

    /// Whether the role printers' listener opens: a role served over IPP, ePOS-Print or WebPRNT.
    var servesPrinters: Bool { rolePrinters != nil || !eposDevices.isEmpty || !webprntRoles.isEmpty }

    /// Serves until the task is cancelled or the agent shuts down gracefully.
    /// `onListening` is called as each listener starts to accept connections.
    public func run(onListening: @escaping @Sendable () -> Void = {}) async throws {
        let limiter = RateLimiter(perSecond: settings.rateLimit)
        // One event loop serves both listeners: the handlers' work runs in
        // Swift's tasks, not on the loop, and a till's API sees a few requests
        // a second. NIO's shared group would start a thread per core, each
        // with its own buffers (heaptrack: 384 KB on this 2-core machine).
        let loops = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        var applications: [@Sendable () async throws -> Void] = []
        if let listen = settings.listen {
            let tls = try tlsConfiguration()
            let router = try makeRouter(limiter: limiter, loopbackOnly: listen.isLoopback, secure: tls != nil)
            let application = Application(router: router, server: try tls.map { try .tls(Self.server, tlsConfiguration: $0) } ?? Self.server,
                                            configuration: Self.configuration(.hostname(listen.host, port: listen.port)),
                                            onServerRunning: { [logger] channel in
                logger.info("HTTP API listening on \(tls == nil ? "http" : "https")://\(ListenAddress(host: listen.host, port: channel.localAddress?.port ?? listen.port))")
                onListening()
            }, eventLoopGroupProvider: .shared(loops), logger: logger.withLevel(.warning))
            applications.append { try await application.runService() }
        }
        if let socketPath {
            try Self.clearStaleSocket(socketPath)
            // Only this machine's programs in the service's group reach the socket, by any name they like.
            let router = try makeRouter(limiter: limiter, loopbackOnly: false, secure: false)
            let application = Application(router: router, server: Self.server,
                                            configuration: Self.configuration(.unixDomainSocket(path: socketPath)),
                                            onServerRunning: { [logger] _ in
                // Owner and group only: membership of the service's group is what lets a local program in.
                chmod(socketPath, 0o660)
                logger.info("HTTP API listening on unix:\(socketPath)")
                onListening()
            }, eventLoopGroupProvider: .shared(loops), logger: logger.withLevel(.warning))
            applications.append { try await application.runService() }
        }
        if rolePrinters == nil { RolePrinterRecord.remove(forDatabase: intake.store.path) }
        if servesPrinters {
            let certificate = rolePrinterCertificate
            let tls = try Self.tlsConfiguration(certificate: certificate?.certificatePath, key: certificate?.keyPath)
            let printing = AnsweredPrint(intake: intake, canceller: JobCanceller(store: intake.store), journal: journal)
            let eposEndpoint = roleStatus.flatMap { status in
                eposDevices.isEmpty ? nil : EposEndpoint(printing: printing, drawer: CashDrawer(store: intake.store), status: status,
                                                         devices: eposDevices, settings: epos, listen: ipp.listen,
                                                         maxBody: Int(settings.maxBody), logger: logger)
            }
            let webprntEndpoint = roleStatus.flatMap { status in
                webprntRoles.isEmpty ? nil : WebPrntEndpoint(printing: printing, drawer: CashDrawer(store: intake.store), status: status,
                                                             roles: webprntRoles, settings: webprnt, listen: ipp.listen,
                                                             maxBody: Int(settings.maxBody), logger: logger)
            }
            let listener = RolePrinterListener(server: rolePrinters, epos: eposEndpoint, webprnt: webprntEndpoint, settings: ipp,
                                               maxBody: Int(settings.maxBody))
            let router = listener.makeRouter(limiter: limiter, secure: tls != nil)
            let roles = (rolePrinters?.roles.map(\.description) ?? []).sorted().joined(separator: ", ")
            let eposLine = eposDevices.isEmpty ? "" : "; ePOS-Print (devid " + eposDevices.keys.sorted().joined(separator: ", ")
                + ") at \(tls == nil ? "http" : "https")://ADDRESS\(EposEndpoint.path)"
            let webprntLine = webprntRoles.isEmpty ? "" : "; WebPRNT (" + webprntRoles.map(\.description).sorted().joined(separator: ", ")
                + ") at \(tls == nil ? "http" : "https")://ADDRESS\(WebPrntEndpoint.path)"
            let application = Application(router: router, server: try tls.map { try .tls(Self.server, tlsConfiguration: $0) } ?? Self.server,
                                            configuration: Self.configuration(.hostname(ipp.listen.host, port: ipp.listen.port)),
                                            onServerRunning: { [logger, ipp, store = intake.store] channel in
                let address = ListenAddress(host: ipp.listen.host, port: channel.localAddress?.port ?? ipp.listen.port)
                let base = "\(tls == nil ? "ipp" : "ipps")://\(address)/ipp/print/"
                let served = certificate.map { ", certificate SHA-256 \($0.fingerprint.colonSeparated)" } ?? ""
                let endpoints = (eposLine + webprntLine).replacingOccurrences(of: "ADDRESS", with: "\(address)")
                if roles.isEmpty {
                    logger.info("Role printers' listener on \(address), no role over IPP\(served)\(endpoints)")
                } else {
                    logger.info("Role printers (\(roles)) listening on \(base)ROLE\(served)\(endpoints)")
                }
                let posEndpoints = endpoints.components(separatedBy: "; ").filter { !$0.isEmpty }
                if !roles.isEmpty || !posEndpoints.isEmpty {
                    RolePrinterRecord(base: base, roles: roles.isEmpty ? [] : roles.components(separatedBy: ", "), certificate: certificate,
                                      endpoints: posEndpoints).write(forDatabase: store.path)
                }
                onListening()
            }, eventLoopGroupProvider: .shared(loops), logger: logger.withLevel(.warning))
            applications.append { try await application.runService() }
        }
        // Event streams never end by themselves: closing the journal ends them, so that
        // the servers' graceful shutdown does not wait for their clients.
        do {
            try await withGracefulShutdownHandler {
                try await withThrowingDiscardingTaskGroup { group in
                    for application in applications {
                        group.addTask { try await application() }
                    }
                    group.addTask { [streams, store = intake.store] in
                        await cancelWhenGracefulShutdown { await streams.watch(store) }
                    }
                }
            } onGracefulShutdown: { [journal] in
                journal.close()
            }
        } catch {
            try? await loops.shutdownGracefully()
            throw error
        }
        try await loops.shutdownGracefully()
    }

    /// The TLS configuration from `[http] tls-certificate` and `tls-key`, nil
    /// without them: TLS 1.2 at the least, and a key no other user may read.
    func tlsConfiguration() throws -> TLSConfiguration? {
        try Self.tlsConfiguration(certificate: settings.tlsCertificate, key: settings.tlsKey)
    }

    /// TLS from a PEM certificate and key, nil without them.
    static func tlsConfiguration(certificate: String?, key: String?) throws -> TLSConfiguration? {
        guard let certificateFile = certificate, let keyFile = key else { return nil }
        try Self.checkKeyIsPrivate(keyFile)
        do {
            let chain = try NIOSSLCertificate.fromPEMFile(certificateFile).map { NIOSSLCertificateSource.certificate($0) }
            let key = try NIOSSLPrivateKey(file: keyFile, format: .pem)
            var configuration = TLSConfiguration.makeServerConfiguration(certificateChain: chain, privateKey: .privateKey(key))
            // TLS 1.0 and 1.1 are broken and retired (RFC 8996); every till and browser of this decade has 1.2.
            configuration.minimumTLSVersion = .tlsv12
            return configuration
        } catch {
            throw APIProblem(.internalServerError, "The TLS certificate \(certificateFile) or key \(keyFile) cannot be read as PEM: \(error). "
                + "Check the paths and that the agent's user may read them.")
        }
    }

    /// Refuses a private key file that users other than its owner and group
    /// may read or write: anyone who reads it can pose as this agent.
    static func checkKeyIsPrivate(_ keyFile: String) throws {
        var info = stat()
        guard stat(keyFile, &info) == 0 else { return }  // a missing file is reported when it is read
        let others = info.st_mode & 0o007
        guard others == 0 else {
            throw APIProblem(.internalServerError, "The TLS key \(keyFile) can be read or written by every user on this machine "
                + "(mode \(String(info.st_mode & 0o777, radix: 8))), so the agent does not use it. "
                + "Run `chmod 640 \(keyFile)` (owner root, group kioskprint), or `chmod 600` if the agent's user owns it.")
        }
    }

    /// A client silent for 30 s (a half-sent request, a connection left open)
    /// is disconnected; event streams are answers in progress, not idle. A
    /// body that comes too slowly, or a request answered before it was read
    /// (a refusal), closes its connection (`RequestPace`). `Expect: 100-continue`
    /// is answered at once (`ExpectContinue`).
    static var server: HTTPServerBuilder {
        .http1(configuration: .init(additionalChannelHandlers: [ExpectContinue(), RequestPace()], idleTimeout: .seconds(30)))
    }

    /// At most 256 connections at once per listener: a flood of them takes
    /// the API's descriptors, never the printers'.
    static func configuration(_ address: BindAddress) -> ApplicationConfiguration {
        .init(address: address, serverName: "kioskprint", availableConnectionsDelegate: MaximumAvailableConnections(256))
    }

    /// The routes of one listener. The limiter and the open streams are the
    /// agent's, shared by every listener.
    /// - Parameter loopbackOnly: answer only requests addressed to localhost (a loopback TCP address).
    /// - Parameter secure: the listener has TLS (the status page's own origin is https).
    package func makeRouter(limiter: RateLimiter, loopbackOnly: Bool, secure: Bool) throws -> Router<BasicRequestContext> {
        let router = Router(context: BasicRequestContext.self)
        // Outermost first: CORS headers go on every answer, problems included.
        router.add(middleware: CrossOrigin(allowed: settings.allowedOrigins, secure: secure))
        router.add(middleware: ProblemMiddleware())
        if loopbackOnly { router.add(middleware: LoopbackHost()) }
        // Before anything keyed on the path: the router would match other spellings of it too.
        router.add(middleware: CanonicalPath())
        router.add(middleware: TokenGate(store: intake.store, limiter: limiter))
        // After the token, so that no one without one makes the agent hold a body.
        router.add(middleware: BodyLimit(maxBody: Int(settings.maxBody)))
        router.add(middleware: JobBodyCheck(maxBody: Int(settings.maxBody)))
        router.get("/v1/openapi.json") { _, _ in
            Response(status: .ok, headers: [.contentType: "application/json"],
                     body: .init(byteBuffer: ByteBuffer(bytes: PackageResources.openapi_json)))
        }
        try APIHandler(intake: intake, journal: journal, streams: streams, maxBody: Int(settings.maxBody), metrics: metrics)
            .registerHandlers(on: router)
        StatusRoutes(intake: intake, box: box, notices: notices).add(to: router)
        return router
    }

    /// A socket file left by an agent that did not stop cleanly is removed; anything else at that path is not touched.
    static func clearStaleSocket(_ path: String) throws {
        var info = stat()
        guard lstat(path, &info) == 0 else { return }
        guard info.st_mode & S_IFMT == S_IFSOCK else {
            throw APIProblem(.internalServerError, "\(path) exists and is not a socket, so the HTTP API cannot listen there. "
                + "Move it away, or set [http] socket to another path.")
        }
        unlink(path)
    }
}

extension Logger {
    /// A copy at another level: Hummingbird's own chatter stays out of the agent's log.
    func withLevel(_ level: Logger.Level) -> Logger {
        var copy = self
        if copy.logLevel < level { copy.logLevel = level }
        return copy
    }
}
