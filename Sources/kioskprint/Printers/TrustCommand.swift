import ArgumentParser
import CommandLineOutput
import PrintModel
import Setup

/// `kioskprint printers trust PRINTER [--fingerprint SHA256]`: pin the
/// certificate a saved ipps printer presents now.
struct TrustCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trust",
        abstract: "Pin the TLS certificate a saved ipps printer presents now, replacing the pinned one.",
        discussion: """
        KioskPrint sends nothing to an ipps printer that presents another certificate than the one \
        pinned when it was saved. After a printer was reset, replaced or given a new certificate, \
        compare the new fingerprint (in the error, and here) with the one on the printer's own \
        status page, then run this. It shows the old and the new fingerprint and saves the new one \
        without asking. With --fingerprint, only that certificate is accepted: a printer presenting \
        another is refused and nothing changes.
        """)

    @Argument(help: "The printer: its ID, name or URI, as `printers list` shows them.")
    var printer: String

    @Option(help: ArgumentHelp("Accept only the certificate with this SHA-256 fingerprint (64 hex digits; colons allowed).",
                               valueName: "sha256"))
    var fingerprint: String?

    @Option(help: "Seconds to wait for the printer to answer.")
    var timeout: Double = 5

    @OptionGroup var storage: DatabaseOptions

    func run() async throws {
        var expected: CertificateFingerprint?
        if let fingerprint {
            guard let read = CertificateFingerprint(fingerprint) else {
                throw CLIError("'\(fingerprint)' is not a SHA-256 fingerprint. Give its 64 hex digits, with or without "
                    + "colons, as the error about the changed certificate or the printer's status page shows them.")
            }
            expected = read
        }
        let trusted = try await CLIError.wrapAsync {
            try await RoleSetup(store: try storage.open(), contactTimeout: seconds(timeout))
                .trust(printer, fingerprint: expected)
        }
        let saved = trusted.printer
        print("Printer \(saved.id), \(saved.name) (\(saved.uri))")
        print("  pinned before: " + (trusted.previous.map { "SHA-256 \($0.hex)" } ?? "nothing"))
        print("  presents now:  SHA-256 \(trusted.pinned.hex)")
        if trusted.changed {
            print("The certificate it presents now is pinned; KioskPrint prints to it again.")
        } else {
            print("It presents the certificate already pinned; nothing was changed.")
        }
    }
}
