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
        // Run to its end on a thread of its own: a pipe read here, not Foundation's Process (which hung when two were waited on at once).
        let text = try Self.run("/usr/bin/openssl", ["x509", "-noout", "-fingerprint", "-sha256", "-in", made.certificatePath])
        #expect(text.hasSuffix("=\(made.fingerprint.colonSeparated)\n"), "\(text)")
    }

    /// What `program` writes, through popen (the test target has no Simulator).
    static func run(_ program: String, _ arguments: [String]) throws -> String {
        let command = ([program] + arguments).map { "'\($0)'" }.joined(separator: " ")
        guard let pipe = popen(command, "r") else { return "" }
        var text = ""
        var buffer = [CChar](repeating: 0, count: 4096)
        while fgets(&buffer, Int32(buffer.count), pipe) != nil { text += String(cString: buffer) }
        pclose(pipe)
        return text
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
