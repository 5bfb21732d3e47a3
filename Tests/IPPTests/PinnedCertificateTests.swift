import Foundation
import IPP
import PrintModel
import Simulator
import Testing

/// Pinned certificates against real ippeveprinter over ipps on loopback: the
/// fingerprint libcups reports is the certificate's (as openssl reads it from
/// the printer's key folder), and a printer restarted with a new key folder
/// presents a new one, which a pinned exchange refuses before sending anything.
@Suite("Pinned certificates", .serialized)
struct PinnedCertificateTests {
    @Test("The certificate presented over ipps is the printer's own; ipp presents none")
    func presentedCertificateIsTheOneInTheKeyFolder() async throws {
        let lab = try await PrinterLab.shared()
        let printer = try #require(lab.printer(.receipt80mm))
        let secure = try await PrinterContact.contactWithCertificate(uri: printer.secureURI)
        #expect(secure.certificate == (try printer.certificateFingerprint()))
        #expect(secure.capabilities.name == printer.name)
        let plain = try await PrinterContact.contactWithCertificate(uri: printer.uri)
        #expect(plain.certificate == nil)
    }

    @Test("Same certificate after a restart answers; a new one is refused before any request, by every exchange")
    func aChangedCertificateIsRefusedBeforeAnythingIsSent() async throws {
        var printer = try await JobLab.recordingPrinter("Recording Pinned")
        defer { retire(printer) }
        let pin = try #require(try await PrinterContact.contactWithCertificate(uri: printer.secureURI).certificate)

        let lab = try await PrinterLab.shared()
        printer = try await lab.restart(printer)
        #expect(try await PrinterContact.contact(uri: printer.secureURI, pin: pin).name == printer.name)

        printer = try await lab.restartWithNewCertificate(printer)
        let presented = try printer.certificateFingerprint()
        #expect(presented != pin)
        let expected = ContactError.certificateChanged(CertificateMismatch(uri: printer.secureURI, pinned: pin,
                                                                           presented: presented))
        await #expect(throws: expected) { try await PrinterContact.contact(uri: printer.secureURI, pin: pin) }
        await #expect(throws: expected) { try await PrinterContact.state(uri: printer.secureURI, pin: pin) }
        let job = try JobLab.receipt("Must not print \(JobLab.marker())")
        do {
            _ = try await PrinterJobs.submit(job, to: printer.secureURI, pin: pin)
            Issue.record("Print-Job went through to a printer presenting another certificate")
        } catch {
            #expect(error == .unreachable(expected))
            #expect(!error.mayHaveBeenAccepted, "the check is before the request: nothing can have been accepted")
            #expect(error.isRetryable, "the job waits for the administrator rather than failing")
        }
        await #expect(throws: JobQueryError.unreachable(expected)) {
            try await PrinterJobs.jobs(at: printer.secureURI, pin: pin)
        }
        await #expect(throws: JobQueryError.unreachable(expected)) {
            try await PrinterJobs.status(of: 1, at: printer.secureURI, pin: pin)
        }
        await #expect(throws: JobQueryError.unreachable(expected)) {
            try await PrinterJobs.cancel(jobID: 1, at: printer.secureURI, pin: pin)
        }
        // Nothing reached the printer: no job at all, not even a listed one.
        #expect(try await PrinterJobs.jobs(at: printer.secureURI, which: .all).isEmpty)
        #expect(try printer.receivedJobs().isEmpty)

        // The message names the printer's address, both fingerprints and the command that trusts the new one.
        let message = expected.description
        #expect(message.contains(printer.secureURI) && message.contains(pin.hex) && message.contains(presented.hex))
        #expect(message.contains("kioskprint printers trust"))

        // With the new pin, printing works.
        let printed = try await PrinterJobs.submit(job, to: printer.secureURI, pin: presented)
        #expect(try await printer.receivedJobs(atLeast: 1).map(\.jobID) == [printed.id])
    }

    @Test("A pinned printer reached over ipp:// presents no certificate and is refused")
    func aPinnedPrinterOverPlainIPPIsRefused() async throws {
        let lab = try await PrinterLab.shared()
        let printer = try #require(lab.printer(.receipt80mm))
        let pin = try printer.certificateFingerprint()
        await #expect(throws: ContactError.certificateChanged(CertificateMismatch(uri: printer.uri, pinned: pin,
                                                                                  presented: nil))) {
            try await PrinterContact.contact(uri: printer.uri, pin: pin)
        }
    }
}
