import Foundation
import IPP
import PrintModel
import Setup
import Simulator
import Store
import Testing

/// Trust on first use as the administrator meets it: `add` pins the
/// certificate, `check` holds the printer to it (and pins one saved before
/// pins), `trust` accepts a new one, only the given one with a fingerprint.
@Suite(.serialized, .timeLimit(.minutes(2))) struct PinSetupTests {
    private func setup() throws -> RoleSetup {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("kioskprint-pins-\(UUID().uuidString)/kioskprint.sqlite").path
        return RoleSetup(store: try KioskStore(path: path))
    }

    private func ownPrinter(_ label: String) async throws -> RunningPrinter {
        let lab = try await PrinterLab.shared()
        return try await lab.startPrinter(SimulatedPrinter.receipt80mm.named("\(label) \(try Loopback.freePort())"),
                                          keys: try lab.newKeyFolder())
    }

    @Test func addPinsCheckHoldsToThePinAndTrustAcceptsTheNewCertificate() async throws {
        let lab = try await PrinterLab.shared()
        var printer = try await ownPrinter("Pin Setup")
        defer { printer.stop() }
        let setup = try setup()
        let receipt = try Role("receipt")

        let added = try await setup.add(uri: printer.secureURI, role: receipt, as: .primary)
        let first = try printer.certificateFingerprint()
        #expect(added.assignment.printer.certificatePin == first)
        #expect(added.replacedPin == nil)
        let id = added.assignment.printer.id

        // Power-cycled with its own key: the same certificate, and all is well.
        printer = try await lab.restart(printer)
        let same = try #require(try await setup.check(role: receipt).first)
        #expect(same.isReady, "\(same.result)")
        #expect(same.pin == first && !same.pinnedNow)

        // Reset: a new certificate. The check refuses it, naming the printer and what to run.
        printer = try await lab.restartWithNewCertificate(printer)
        let second = try printer.certificateFingerprint()
        let changed = try #require(try await setup.check(role: receipt).first)
        #expect(!changed.isReady)
        guard case .failure(let error) = changed.result else {
            Issue.record("a printer presenting another certificate passed the check")
            return
        }
        #expect(error == .certificateChanged(printer: printer.name, id: id, uri: printer.secureURI, pinned: first,
                                             presented: second))
        let message = error.description
        #expect(message.contains(printer.name) && message.contains("kioskprint printers trust \(id)"), "\(message)")
        #expect(message.contains(second.hex) && message.contains("pick the printer again"))
        #expect(try await setup.store.findPrinter(String(id)).certificatePin == first, "a check never re-pins")

        // A fingerprint that is not the one presented changes nothing.
        let wrong = try #require(CertificateFingerprint(String(repeating: "ab", count: 32)))
        await #expect(throws: SetupError.fingerprintDiffers(printer: printer.name, uri: printer.secureURI, given: wrong,
                                                            presented: second)) {
            try await setup.trust(String(id), fingerprint: wrong)
        }
        #expect(try await setup.store.findPrinter(String(id)).certificatePin == first)

        // The right one, written as openssl writes it (colons, upper case), is trusted.
        let colons = stride(from: 0, to: 64, by: 2).map { offset in
            let start = second.hex.index(second.hex.startIndex, offsetBy: offset)
            return second.hex[start..<second.hex.index(start, offsetBy: 2)].uppercased()
        }.joined(separator: ":")
        let trusted = try await setup.trust(String(id), fingerprint: try #require(CertificateFingerprint(colons)))
        #expect(trusted.previous == first && trusted.pinned == second && trusted.changed)
        #expect(try await setup.store.findPrinter(String(id)).certificatePin == second)
        let again = try #require(try await setup.check(role: receipt).first)
        #expect(again.isReady, "\(again.result)")

        // Trusting again, by name, without a fingerprint: nothing to change.
        let unchanged = try await setup.trust(printer.name)
        #expect(!unchanged.changed && unchanged.pinned == second)
    }

    @Test func aPrinterSavedBeforePinsIsPinnedByTheAdministratorsCheck() async throws {
        let printer = try await ownPrinter("Pin Legacy")
        defer { printer.stop() }
        let setup = try setup()
        let receipt = try Role("receipt")
        // Saved as before pins existed: no certificate with it.
        let capabilities = try await PrinterContact.contact(uri: printer.secureURI)
        _ = try await setup.store.assign(uri: printer.secureURI, serviceName: nil, capabilities: capabilities,
                                         to: receipt, as: .primary)
        #expect(try await setup.store.assignments(for: receipt).first?.printer.certificatePin == nil)

        let checked = try #require(try await setup.check(role: receipt).first)
        #expect(checked.isReady, "\(checked.result)")
        #expect(checked.pinnedNow)
        #expect(checked.pin == (try printer.certificateFingerprint()))
        #expect(try await setup.store.assignments(for: receipt).first?.printer.certificatePin == checked.pin)

        let later = try #require(try await setup.check(role: receipt).first)
        #expect(!later.pinnedNow && later.pin == checked.pin)
    }

    @Test func savingAgainAfterANewCertificatePinsItAndSaysWhichItReplaced() async throws {
        let lab = try await PrinterLab.shared()
        var printer = try await ownPrinter("Pin Again")
        defer { printer.stop() }
        let setup = try setup()
        let first = try await setup.add(uri: printer.secureURI, role: try Role("receipt"), as: .primary)
        printer = try await lab.restartWithNewCertificate(printer)
        // Picking it again, this time for another role, is the other way to accept the new certificate.
        let again = try await setup.add(uri: printer.secureURI, role: try Role("coupon"), as: .primary)
        #expect(again.assignment.printer.id == first.assignment.printer.id)
        #expect(again.replacedPin == first.assignment.printer.certificatePin)
        #expect(again.assignment.printer.certificatePin == (try printer.certificateFingerprint()))
    }

    @Test func ippAndUnreachablePrintersHaveNothingToPin() async throws {
        let lab = try await PrinterLab.shared()
        let running = try #require(lab.printer(.receipt80mm))
        let setup = try setup()
        let plain = try await setup.add(uri: running.uri, role: try Role("receipt"), as: .primary)
        #expect(plain.assignment.printer.certificatePin == nil)
        await #expect(throws: SetupError.nothingToPin(printer: running.name, uri: running.uri)) {
            try await setup.trust(running.uri)
        }
    }
}

