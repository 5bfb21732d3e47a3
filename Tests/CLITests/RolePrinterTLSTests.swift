import Foundation
import Simulator
import Testing

/// A role printer served over TLS with the certificate the agent makes on
/// its first start: what openssl is presented, what `status` shows, what
/// ipptool and avahi-browse see, and the same certificate after a restart.
extension AgentEndToEnd {
    @Suite(.timeLimit(.minutes(4))) struct RolePrinterTLSTests {
        @Test func theCertificateMadeOnFirstStartIsServedShownByStatusAndKept() async throws {
            let kiosk = try await RolePrinterKiosk.start("tls", printer: .receipt80mm, ipp: "tls = true")
            defer { kiosk.printer.stop() }
            let folder = (kiosk.site.database as NSString).deletingLastPathComponent + "/tls"
            let key = try FileManager.default.attributesOfItem(atPath: folder + "/agent-key.pem")[.posixPermissions] as? Int
            #expect(key == 0o600, "the private key is the agent's alone: \(String(key ?? 0, radix: 8))")

            let presented = try Self.presentedFingerprint(port: kiosk.port)
            #expect(presented.count == 95, "SHA-256 as openssl writes it: \(presented)")
            let status = try await kiosk.site.runner.run(["status"])
            #expect(status.output.contains("ipps://127.0.0.1:\(kiosk.port)/ipp/print/receipt"), "\(status.output)")
            #expect(status.output.contains("SHA-256 \(presented)"), "status shows the fingerprint the listener presents: \(status.output)")
            #expect(kiosk.site.logText.contains(presented), "the agent logged the certificate it made")

            // ipptool (libcups) prints to it over ipps://, and the plain scheme gets no answer from a TLS listener.
            let secure = kiosk.uri("receipt").replacingOccurrences(of: "ipp://", with: "ipps://")
            let tally = try IpptoolTally.run(uri: secure, file: "/usr/share/cups/ipptool/get-printer-attributes.test", document: nil)
            #expect(tally.failed.isEmpty && tally.passed.count == 1, "\(tally.output.suffix(2000))")
            let plain = try Subprocess.run("/usr/bin/curl", ["-s", "-o", "/dev/null", "-w", "%{http_code}",
                                                             kiosk.uri("receipt").replacingOccurrences(of: "ipp://", with: "http://")])
            #expect(plain.output == "000", "no plain HTTP on the TLS listener: \(plain.output)")

            // Announced as _ipps._tcp, with the TLS key.
            let bus = ["DBUS_SYSTEM_BUS_ADDRESS": try await PrinterLab.shared().busAddress]
            var browsed = ""
            try await pollUntil("avahi-browse to list the receipt role under _ipps._tcp", within: .seconds(30)) {
                browsed = try Subprocess.run(try ProgramPath.find("avahi-browse"), ["-rpt", "_ipps._tcp"], environment: bus).output
                return browsed.split(separator: "\n").contains { $0.hasPrefix("=") && $0.contains(";\(kiosk.port);") }
            }
            let resolved = browsed.split(separator: "\n").first { $0.hasPrefix("=") && $0.contains(";\(kiosk.port);") } ?? ""
            #expect(resolved.contains("\"TLS=1.2\""), "\(resolved)")

            // A restart serves the same certificate: a client that trusted it is not asked again.
            await kiosk.site.stop(kiosk.agent)
            let again = try await kiosk.site.start()
            #expect(try Self.presentedFingerprint(port: kiosk.port) == presented)
            await kiosk.site.stop(again)
        }

        /// The SHA-256 fingerprint of the certificate a TLS listener presents, as `openssl x509 -fingerprint` writes it.
        static func presentedFingerprint(port: Int) throws -> String {
            let shown = try Subprocess.run("/bin/sh", ["-c", "openssl s_client -connect 127.0.0.1:\(port) </dev/null 2>/dev/null "
                                                        + "| openssl x509 -noout -fingerprint -sha256"])
            return shown.output.split(separator: "=", maxSplits: 1).last.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) } ?? shown.errors
        }
    }
}
