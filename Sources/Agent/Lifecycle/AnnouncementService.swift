import Discovery
import Foundation
import HTTPAPI
import KioskConfiguration
import Logging
import PrintModel
import RolePrinters
import ServiceLifecycle

/// DNS-SD for the role printers, while the agent runs: each role served over
/// IPP is announced through avahi-daemon as `_ipp._tcp` (`_ipps._tcp` with
/// TLS) with the subtypes `_universal` (what iOS browses for) and `_print`,
/// and the TXT keys its IPP attributes agree with. A loopback listener is
/// announced on the loopback interface only.
struct AnnouncementService: Service {
    let printers: RolePrinterServer
    let ipp: IPPSettings
    let logger: Logger

    func run() async throws {
        guard ipp.listen.port != 0 else {
            logger.info("DNS-SD: the role printers listen on a port chosen at start ([ipp] listen port 0); they are not announced.")
            return
        }
        let secure = ipp.tls
        // The name Avahi announces the box by, which clients then address it with (and the
        // TXT's adminurl must match printer-more-info, which follows the name a client used).
        let host = MachineName.mdns
        var services: [ServiceAnnouncement] = []
        for role in printers.roles.sorted(by: { $0.description < $1.description }) {
            guard let txt = await printers.txtRecord(for: role, host: host, port: ipp.listen.port, secure: secure) else { continue }
            services.append(ServiceAnnouncement(name: txt.name, type: secure ? "_ipps._tcp" : "_ipp._tcp", subtypes: ["_universal", "_print"],
                                                port: ipp.listen.port, txt: txt.pairs, loopbackOnly: ipp.listen.isLoopback))
        }
        guard !services.isEmpty else { return }
        let logger = logger
        let announcer = ServiceAnnouncer(services) { logger.info("\($0)") }
        // Announced until the agent stops; withdrawn before it exits.
        try? await gracefulShutdown()
        announcer?.stop()
    }

}
