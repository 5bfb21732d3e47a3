public import Foundation
public import PrintModel

/// Printers whose certificates change: for the tests of pinned certificates.
extension PrinterLab {
    /// A new, empty key folder for `startPrinter(_:keys:)` or `restart(_:keys:)`:
    /// a printer started on it makes a new key and self-signed certificate.
    public func newKeyFolder() throws -> URL {
        let folder = directory.appendingPathComponent("keys-\(UUID().uuidString.prefix(8).lowercased())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// Restarts `running` on its port with a certificate it never presented before.
    public func restartWithNewCertificate(_ running: RunningPrinter) async throws -> RunningPrinter {
        try await restart(running, keys: try newKeyFolder())
    }
}

extension RunningPrinter {
    /// The SHA-256 fingerprint of the certificate the printer presents over
    /// ipps, read from its key folder by openssl: independent of libcups.
    public func certificateFingerprint() throws -> CertificateFingerprint {
        let certificate = keyFolder.appendingPathComponent("localhost.crt").path
        let result = try Subprocess.run("openssl", ["x509", "-in", certificate, "-noout", "-fingerprint", "-sha256"],
                                        limit: .seconds(10))
        // "sha256 Fingerprint=AB:CD:..." (the prefix's case differs between versions).
        guard result.status == 0, let equals = result.output.firstIndex(of: "="),
              let fingerprint = CertificateFingerprint(String(result.output[result.output.index(after: equals)...]))
        else {
            throw LabError.didNotStart(program: "openssl x509 on \(certificate)", log: result.output + result.errors)
        }
        return fingerprint
    }
}
