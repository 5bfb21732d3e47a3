import Foundation
@testable import HTTPAPI
import Testing

/// The certificate the agent makes for itself: kept across starts, made
/// anew before it expires or when the box gets a name it lacks, and read
/// by the fingerprint openssl gives.
@Suite struct AgentCertificateTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("kioskprint-tls-\(UUID().uuidString)").path
    let names = ["till-3.local", "till-3", "localhost", "127.0.0.1", "::1"]

    @Test func aMadeCertificateIsKeptUntilThirtyDaysBeforeItExpires() throws {
        let now = Date()
        let made = try AgentCertificate.madeIfNeeded(in: folder, names: names, now: now)
        #expect(made.madeByAgent && made.names == names)
        #expect(abs(made.notValidAfter.timeIntervalSince(now) - 825 * 86_400) < 2, "Apple's 825-day ceiling")
        #expect(try AgentCertificate.madeIfNeeded(in: folder, names: names, now: now) == made, "the next start serves the same one")
        let lateInLife = now.addingTimeInterval(800 * 86_400)
        let renewed = try AgentCertificate.madeIfNeeded(in: folder, names: names, now: lateInLife)
        #expect(renewed.fingerprint != made.fingerprint, "made anew with under 30 days left")
        let renamed = try AgentCertificate.madeIfNeeded(in: folder, names: ["kiosk-7.local"], now: lateInLife)
        #expect(renamed.fingerprint != renewed.fingerprint && renamed.names == ["kiosk-7.local"], "a new host name gets a new certificate")
        let folderMode = try FileManager.default.attributesOfItem(atPath: folder)[.posixPermissions] as? Int
        #expect(folderMode == 0o700)
    }

    @Test func theFingerprintIsTheOneOpensslGives() throws {
        let made = try AgentCertificate.madeIfNeeded(in: folder, names: names)
        let openssl = Process()
        openssl.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        openssl.arguments = ["x509", "-noout", "-fingerprint", "-sha256", "-in", made.certificatePath]
        let output = Pipe()
        openssl.standardOutput = output
        try openssl.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        openssl.waitUntilExit()
        #expect(text.hasSuffix("=\(made.fingerprint.colonSeparated)\n"), "\(text)")
    }

    @Test func aFileThatIsNotACertificateIsNamedInTheError() throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = folder + "/given.pem"
        try Data("not a certificate".utf8).write(to: URL(fileURLWithPath: path))
        #expect { try AgentCertificate.read(certificate: path, key: path) } throws: { error in
            "\(error)".contains(path) && "\(error)".contains("is not a PEM certificate")
        }
        // A damaged made certificate is replaced, not served.
        try Data("damaged".utf8).write(to: URL(fileURLWithPath: folder + "/" + AgentCertificate.certificateFile))
        #expect(try AgentCertificate.madeIfNeeded(in: folder, names: names).names == names)
    }
}
