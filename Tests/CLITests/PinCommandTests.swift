import Foundation
import GRDB
import PrintModel
import Simulator
import Store
import Testing

/// Pinned certificates through the command line: `add` pins and says so,
/// `list` and `check` show the pin, a new certificate fails `check` with the
/// command to run, `trust` refuses a wrong fingerprint and accepts the new one,
/// and the printer prints again.
@Suite struct PinCommandTests {
    @Test func addListCheckTrustAndPrintAgain() async throws {
        let lab = try await PrinterLab.shared()
        var printer = try await lab.startPrinter(.recording(
            SimulatedPrinter.receipt80mm.named("CLI Pinned \(try Loopback.freePort())")), keys: try lab.newKeyFolder())
        defer { printer.stop() }
        let (kioskprint, database) = CommandRunner.forLab(lab)
        let first = try printer.certificateFingerprint()

        let added = try await kioskprint.run(["printers", "add", printer.secureURI, "--role", "receipt"])
        #expect(added.status == 0, "\(added.errors)")
        #expect(added.output.contains("Its TLS certificate is pinned: SHA-256 \(first.hex)."), "\(added.output)")
        let id = try #require(try await KioskStore(path: database).assignments().first?.printer.id)

        let table = try await kioskprint.run(["printers", "list"])
        #expect(table.output.contains("PIN (SHA-256)") && table.output.contains(first.short), "\(table.output)")
        #expect(!table.output.contains(first.hex), "the table shows the short form")
        let json = try await kioskprint.run(["printers", "list", "--json"])
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [[String: Any]])
        #expect(rows.first?["certificatePin"] as? String == first.hex)

        printer = try await lab.restartWithNewCertificate(printer)
        let second = try printer.certificateFingerprint()
        let refused = try await kioskprint.run(["printers", "check"])
        #expect(refused.status == 1)
        #expect(refused.output.contains("certificate-changed"), "\(refused.output)")
        #expect(refused.output.contains("\(printer.name) (\(printer.secureURI)) presented a different TLS certificate"))
        #expect(refused.output.contains(second.hex) && refused.output.contains("kioskprint printers trust \(id)"))
        let checkJSON = try await kioskprint.run(["printers", "check", "--json"])
        let checked = try #require(try JSONSerialization.jsonObject(with: Data(checkJSON.output.utf8)) as? [[String: Any]])
        #expect(checked.first?["state"] as? String == "certificate-changed")
        #expect(checked.first?["certificatePin"] as? String == first.hex)

        let wrong = try await kioskprint.run(["printers", "trust", String(id), "--fingerprint", String(repeating: "0", count: 64)])
        #expect(wrong.status == 1)
        #expect(wrong.errors.contains("not trusted and nothing was changed") && wrong.errors.contains(second.hex),
                "\(wrong.errors)")
        let malformed = try await kioskprint.run(["printers", "trust", String(id), "--fingerprint", "12:34"])
        #expect(malformed.status == 1 && malformed.errors.contains("is not a SHA-256 fingerprint"))
        #expect(try await KioskStore(path: database).findPrinter(String(id)).certificatePin == first)

        let trusted = try await kioskprint.run(["printers", "trust", String(id)])
        #expect(trusted.status == 0, "\(trusted.errors)")
        #expect(trusted.output.contains("pinned before: SHA-256 \(first.hex)"), "\(trusted.output)")
        #expect(trusted.output.contains("presents now:  SHA-256 \(second.hex)"))
        #expect(try await kioskprint.run(["printers", "check"]).status == 0)

        let test = try await kioskprint.run(["printers", "test", "receipt"])
        #expect(test.status == 0, "\(test.output)\(test.errors)")
        #expect(try await printer.receivedJobs(atLeast: 1).contains { $0.jobName.hasPrefix("Test page for receipt") })
    }

    @Test func checkPinsAPrinterSavedBeforePinsAndSaysSo() async throws {
        let lab = try await PrinterLab.shared()
        let receipt = try #require(lab.printer(.receipt80mm))
        let (kioskprint, database) = CommandRunner.forLab(lab)
        #expect(try await kioskprint.run(["printers", "add", receipt.secureURI, "--role", "receipt"]).status == 0)
        // As a database from before pins would hold it.
        let store = try KioskStore(path: database)
        let id = try #require(try await store.assignments().first?.printer.id)
        let raw = try DatabasePool(path: database)
        try await raw.write { try $0.execute(sql: "UPDATE printer SET certificateSHA256 = NULL WHERE id = ?", arguments: [id]) }
        try raw.close()
        let listed = try await kioskprint.run(["printers", "list"])
        #expect(listed.output.contains("not pinned") && listed.output.contains("Not pinned yet: \(receipt.name)"),
                "\(listed.output)")

        let checked = try await kioskprint.run(["printers", "check"])
        #expect(checked.status == 0, "\(checked.output)\(checked.errors)")
        let pin = try receipt.certificateFingerprint()
        #expect(checked.output.contains("Pinned the TLS certificate of \(receipt.name) now"), "\(checked.output)")
        #expect(checked.output.contains(pin.hex))
        #expect(try await store.findPrinter(String(id)).certificatePin == pin)
        #expect(!(try await kioskprint.run(["printers", "check"]).output.contains("Pinned the TLS certificate")))
    }
}
