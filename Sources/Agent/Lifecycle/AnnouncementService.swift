import Discovery
import Foundation
import HTTPAPI
import KioskConfiguration
import Logging
import PrintModel
import RawRolePrinters
import RolePrinters
import ServiceLifecycle

/// DNS-SD for the role printers, while the agent runs: each role served over
/// IPP is announced through avahi-daemon as `_ipp._tcp` (`_ipps._tcp` with
/// TLS) with the subtypes `_universal` (what iOS browses for) and `_print`,
/// and the TXT keys its IPP attributes agree with. A loopback listener is
/// announced on the loopback interface only.
///
/// The records follow the role: every `checkEvery` they are made again from
/// the configuration in force and the printer each role prints on now, so a
/// failover to a backup (another model, another `ty` and `pdl`) or a reload
/// that serves another role is announced without a restart. Only a record
/// that changed is touched: a TXT record is updated in place.
struct AnnouncementService: Service {
    /// The configuration in force (a reload replaces it).
    let configuration: @Sendable () -> AgentConfiguration
    /// The role printers a configuration serves.
    let printers: @Sendable (AgentConfiguration) -> RolePrinterServer
    /// What the raw role printers know of their roles (the language and model to announce).
    let rawStatus: RoleStatus
    let logger: Logger
    var checkEvery: Duration = .seconds(10)

    func run() async throws {
        let (configuration, printers, logger, checkEvery, rawStatus) = (configuration, printers, logger, checkEvery, rawStatus)
        let last = try await cancelWhenGracefulShutdown { () async -> ServiceAnnouncer? in
            var announcer: ServiceAnnouncer?
            var announced: [ServiceAnnouncement] = []
            var saidPortZero = false
            while !Task.isCancelled {
                let configuration = configuration()
                if configuration.ipp.listen.port == 0, !configuration.ippRoles.isEmpty, !saidPortZero {
                    logger.info("DNS-SD: the role printers listen on a port chosen at start ([ipp] listen port 0); they are not announced.")
                    saidPortZero = true
                }
                let wanted = await Self.services(printers(configuration), ipp: configuration.ipp)
                    + Self.rawServices(configuration, status: rawStatus)
                if wanted != announced {
                    if wanted.isEmpty {
                        announcer?.stop()
                        announcer = nil
                    } else if let announcer {
                        announcer.update(wanted)
                    } else {
                        announcer = ServiceAnnouncer(wanted) { logger.info("\($0)") }
                    }
                    announced = wanted
                }
                try? await Task.sleep(for: checkEvery)
            }
            return announcer
        }
        // Withdrawn before the agent exits.
        last?.stop()
    }

    /// A `_pdl-datastream._tcp` record for each raw role printer (none on port
    /// 0, or for a role no raw-language printer holds): the TXT keys of the
    /// Bonjour Printing Specification that a raw client reads, with `ty` and
    /// `pdl` of the printer the role prints on now, so another KioskPrint's
    /// `printers discover` finds it in its catalog as that model.
    static func rawServices(_ configuration: AgentConfiguration, status: RoleStatus) async -> [ServiceAnnouncement] {
        var services: [ServiceAnnouncement] = []
        for (role, raw) in configuration.rawRoles.sorted(by: { $0.key.description < $1.key.description }) where raw.listen.port != 0 {
            let snapshot = await status.snapshot(of: role)
            guard let language = snapshot.language else { continue }
            let model = snapshot.printer?.capabilities.rawProfile?.makeAndModel ?? snapshot.printer?.capabilities.makeAndModel ?? ""
            let txt: [(key: String, value: String)] = [
                ("txtvers", "1"), ("qtotal", "1"), ("pdl", language.mimeType),
                ("ty", model.isEmpty ? "KioskPrint \(role)" : model), ("product", "(\(model.isEmpty ? "KioskPrint" : model))"),
                ("note", "KioskPrint role \(role)"),
            ]
            services.append(ServiceAnnouncement(name: "\(role) @ \(configuration.box)", type: "_pdl-datastream._tcp",
                                                port: raw.listen.port, txt: txt, loopbackOnly: raw.listen.isLoopback))
        }
        return services
    }

    /// The records of every role `printers` serves, in role order; none on port 0.
    static func services(_ printers: RolePrinterServer, ipp: IPPSettings) async -> [ServiceAnnouncement] {
        guard ipp.listen.port != 0 else { return [] }
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
        return services
    }
}
