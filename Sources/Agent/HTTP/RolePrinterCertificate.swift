import Foundation
import HTTPAPI
import KioskConfiguration
import Logging

/// The certificate the role printers serve `ipps://` with: the one `[ipp]`
/// names, else the one the agent made in `tls/` beside the database.
enum RolePrinterCertificate {
    /// The certificate to serve. With `logger` (the listener starting), a
    /// certificate is made when there is none or it must be renewed, and
    /// the log says so; without it (DNS-SD asking whether TLS can be
    /// served), only what is there is read.
    static func resolve(_ ipp: IPPSettings, databasePath: String, logger: Logger?) throws -> AgentCertificate {
        if let certificate = ipp.tlsCertificate, let key = ipp.tlsKey {
            return try AgentCertificate.read(certificate: certificate, key: key)
        }
        let folder = (databasePath as NSString).deletingLastPathComponent + "/tls"
        let kept = (certificate: folder + "/" + AgentCertificate.certificateFile, key: folder + "/" + AgentCertificate.keyFile)
        guard let logger else { return try AgentCertificate.read(certificate: kept.certificate, key: kept.key, madeByAgent: true) }
        let before = try? AgentCertificate.read(certificate: kept.certificate, key: kept.key)
        let made = try AgentCertificate.madeIfNeeded(in: folder, names: names(listen: ipp.listen))
        if made.fingerprint != before?.fingerprint {
            logger.notice("""
                Made a TLS certificate for the role printers: \(made.certificatePath), valid until \
                \(made.notValidAfter.formatted(date: .abbreviated, time: .omitted)), SHA-256 \(made.fingerprint.colonSeparated). \
                Clients ask to trust it once: compare the fingerprint they show with this one (kioskprint status shows it too).
                """)
        }
        return made
    }

    /// The names clients reach the box by: its host name, `HOST.local`, localhost, and the listen address when it is one.
    static func names(listen: ListenAddress) -> [String] {
        var names = [MachineName.mdns] + (MachineName.host.map { [$0] } ?? []) + ["localhost", "127.0.0.1", "::1"]
        if !["0.0.0.0", "::", ""].contains(listen.host), !names.contains(listen.host) { names.append(listen.host) }
        var seen = Set<String>()
        return names.filter { seen.insert($0).inserted }
    }
}
