import Foundation
import Simulator
import Testing

/// The PWG's IPP Everywhere self-certification scripts (istopwg/ippeveselfcert)
/// run against a role printer as they would against a printer on a shop's
/// network: `dnssd-tests.sh` (the TXT keys and their agreement with the IPP
/// attributes), `ipp-tests.sh` (ipp-tests.test) and `document-tests.sh`, each
/// finding the printer by its DNS-SD name with ippfind and reaching it by its
/// mDNS host name through nss-mdns (libnss-mdns, run beside the lab's Avahi).
///
/// The scripts are not shipped here: point `KIOSKPRINT_IPPEVESELFCERT` at the
/// `tests` folder of a checkout of github.com/istopwg/ippeveselfcert to run
/// this; without it the test is skipped, saying so.
extension AgentEndToEnd {
    @Suite(.timeLimit(.minutes(8))) struct SelfCertificationTests {
        static let scripts = ProcessInfo.processInfo.environment["KIOSKPRINT_IPPEVESELFCERT"]

        @Test(.enabled(if: scripts != nil, "set KIOSKPRINT_IPPEVESELFCERT to ippeveselfcert's tests folder"))
        func thePWGsDNSSDAndIPPScriptsPassOnAReceiptRole() async throws {
            let kiosk = try await RolePrinterKiosk.start("selfcert", printer: .receipt80mm, settings: "box = \"kiosk-test\"")
            defer { kiosk.printer.stop() }
            let folder = try kiosk.site.makeFolder("ippeveselfcert")
            for file in try FileManager.default.contentsOfDirectory(atPath: try #require(Self.scripts)) {
                try FileManager.default.copyItem(atPath: Self.scripts! + "/" + file, toPath: folder + "/" + file)
            }
            let lab = try await PrinterLab.shared()
            let bus = ["DBUS_SYSTEM_BUS_ADDRESS": lab.busAddress]
            try await pollUntil("ippfind to find the role printer", within: .seconds(30)) {
                try Subprocess.run(try ProgramPath.find("ippfind"), ["--literal-name", "receipt @ kiosk-test", "-T", "2", "--quiet"],
                                   environment: bus).status == 0
            }
            for script in ["dnssd-tests.sh", "ipp-tests.sh", "document-tests.sh"] {
                // Run beside the lab's avahi-daemon, whose socket nss-mdns asks for HOST.local, as ippfind --ls needs.
                let run = try Subprocess.run(try ProgramPath.find("nsenter"), ["--mount=\(lab.avahiMountNamespace)", "/bin/sh", "-c",
                                                                               "cd '\(folder)' && sh \(script) 'receipt @ kiosk-test'"],
                                             environment: bus, limit: .seconds(300))
                let verdicts = run.output.split(separator: "\n").filter { $0.contains("PASS") || $0.contains("FAIL") || $0.contains("SKIP")
                    || $0.hasPrefix("Summary") || $0.hasPrefix("Score") }
                print("ippeveselfcert \(script) against the receipt role printer:\n" + verdicts.joined(separator: "\n"))
                #expect(!run.output.contains("FAIL"), "\(script):\n\(run.output.suffix(4000))\(run.errors.suffix(3000))")
                #expect(run.output.contains("PASS"), "\(script) ran: \(run.output.suffix(2000))")
            }
            await kiosk.site.stop(kiosk.agent)
        }
    }
}
