import Foundation
import PrintModel
import Setup
import Simulator
import Spooler
import Store
import Testing

/// The spooler and a printer whose certificate changed: nothing goes to it;
/// the job waits with the reason, or goes to a backup, as for any printer
/// that needs a person; once the administrator trusts the new certificate it prints.
@Suite(.serialized, .timeLimit(.minutes(2))) struct PinnedDeliveryTests {
    @Test func aJobWaitsForAPrinterWithANewCertificateAndPrintsOnceItIsTrusted() async throws {
        let lab = try await SpoolLab.make()
        var printer = try await lab.printer(.receipt80mm, "Spool Pinned")
        defer { printer.stop() }
        let setup = RoleSetup(store: lab.store)
        let added = try await setup.add(uri: printer.secureURI, role: try Role("receipt"), as: .primary)
        let pinned = try #require(added.assignment.printer.certificatePin)
        printer = try await lab.lab.restartWithNewCertificate(printer)

        let queued = try await lab.enqueue("receipt", role: "receipt", name: "Receipt 4720")
        let spooler = lab.spooler()
        let delivery = Task { try await spooler.deliver(queued.id) }
        let waiting = try await lab.job(queued.id) { $0.state == .waiting && !$0.stateReasons.isEmpty }
        #expect(waiting.stateReasons == ["certificate-pin-mismatch"], "\(waiting.stateReasons)")
        let reason = waiting.lastError ?? ""
        #expect(reason.contains(printer.name) && reason.contains(pinned.hex), "\(reason)")
        #expect(reason.contains("kioskprint printers trust \(added.assignment.printer.id)"), "\(reason)")
        #expect(waiting.printerJobID == nil)
        #expect(try printer.receivedJobs().isEmpty)
        #expect(lab.events.lines.contains { $0.contains("needs attention") && $0.contains("different TLS certificate") })

        let trusted = try await setup.trust(String(added.assignment.printer.id))
        #expect(trusted.pinned == (try printer.certificateFingerprint()))
        let job = try await delivery.value
        #expect(job.state == .completed, "\(job.lastError ?? "")")
        let received = try await printer.receivedJobs(atLeast: 1)
        #expect(received.map(\.jobName) == ["Receipt 4720 [\(job.marker)]"])
    }

    @Test func aPrimaryWithANewCertificateFailsOverToTheBackup() async throws {
        let lab = try await SpoolLab.make()
        var primary = try await lab.printer(.receipt80mm, "Spool Pinned Primary")
        let backup = try await lab.printer(.receipt80mm, "Spool Pinned Backup")
        defer { primary.stop(); backup.stop() }
        let setup = RoleSetup(store: lab.store)
        _ = try await setup.add(uri: primary.secureURI, role: try Role("receipt"), as: .primary)
        _ = try await setup.add(uri: backup.secureURI, role: try Role("receipt"), as: .backup)
        primary = try await lab.lab.restartWithNewCertificate(primary)

        let queued = try await lab.enqueue("receipt", role: "receipt", name: "Receipt 4721")
        let job = try await lab.spooler().deliver(queued.id)
        #expect(job.state == .completed, "\(job.lastError ?? "")")
        #expect(job.printer?.uri == backup.secureURI)
        #expect(try await backup.receivedJobs(atLeast: 1).count == 1)
        #expect(try primary.receivedJobs().isEmpty)
    }
}
