import Crypto
import KioskConfiguration
public import Foundation
public import PrintModel
import SwiftASN1
import X509

/// The TLS certificate the agent serves with: one an administrator gave, or
/// one the agent made itself on its first start, kept beside the database.
///
/// A made certificate is self-signed, so clients ask their user to trust it
/// once; its SHA-256 fingerprint (`kioskprint status` shows it) is what the
/// administrator compares with the one the client shows. It holds a P-256
/// key and follows the rules Apple's clients apply to every TLS server
/// certificate: the names in subjectAltName, serverAuth in extendedKeyUsage,
/// and at most 825 days of validity. It is made again, with a new key, when
/// less than 30 days are left; until then every start serves the same one.
public struct AgentCertificate: Sendable, Equatable {
    public let certificatePath: String
    public let keyPath: String
    /// SHA-256 of the certificate's DER bytes, what clients show as its fingerprint.
    public let fingerprint: CertificateFingerprint
    public let notValidAfter: Date
    /// The DNS names and addresses it is valid for.
    public let names: [String]
    /// Made by the agent (self-signed), rather than given in the configuration.
    public let madeByAgent: Bool

    /// The file names of a made certificate and its key inside `folder`.
    public static let certificateFile = "agent-certificate.pem"
    public static let keyFile = "agent-key.pem"

    /// The longest validity Apple's clients accept for a TLS server certificate.
    static let lifetime: TimeInterval = 825 * 86_400
    /// Made anew once fewer days than this are left, so a box never serves an expired one.
    static let renewBefore: TimeInterval = 30 * 86_400

    /// The certificate in `folder`, made first when there is none, it cannot
    /// be read, it will expire within 30 days, or it lacks one of `names`.
    ///
    /// - Parameters:
    ///   - folder: where it is kept, made with mode 0700 if missing.
    ///   - names: DNS names (the host name, `HOST.local`) and IP addresses clients reach the agent by.
    public static func madeIfNeeded(in folder: String, names: [String], now: Date = Date()) throws -> AgentCertificate {
        let certificatePath = (folder as NSString).appendingPathComponent(certificateFile)
        let keyPath = (folder as NSString).appendingPathComponent(keyFile)
        if let kept = try? read(certificate: certificatePath, key: keyPath, madeByAgent: true),
           kept.notValidAfter.timeIntervalSince(now) > renewBefore, Set(names).isSubset(of: Set(kept.names)) {
            return kept
        }
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
            let key = P256.Signing.PrivateKey()
            let certificate = try selfSigned(key: key, names: names, now: now)
            // The key is written first, private from its first byte: no moment where another user could read it.
            try write(key.pemRepresentation, to: keyPath, mode: 0o600)
            try write(try certificate.serializeAsPEM().pemString, to: certificatePath, mode: 0o644)
        } catch {
            throw AgentCertificateError(description: "The agent could not make its TLS certificate in \(folder): \(error). "
                + "Check that the agent's user may write there, or give tls-certificate and tls-key in the configuration.")
        }
        return try read(certificate: certificatePath, key: keyPath, madeByAgent: true)
    }

    /// A certificate from PEM files: its fingerprint, expiry and names.
    public static func read(certificate certificatePath: String, key keyPath: String, madeByAgent: Bool = false) throws -> AgentCertificate {
        let text: String
        do { text = try String(contentsOfFile: certificatePath, encoding: .utf8) } catch {
            throw AgentCertificateError(description: "The TLS certificate \(certificatePath) cannot be read: \(error.localizedDescription).")
        }
        do {
            let document = try PEMDocument(pemString: text)
            let certificate = try Certificate(pemDocument: document)
            let digest = SHA256.hash(data: document.derBytes)
            guard let fingerprint = CertificateFingerprint(digest: Array(digest)) else {
                throw AgentCertificateError(description: "SHA-256 gave no 32 bytes")
            }
            var names: [String] = []
            if let alternatives = try certificate.extensions.subjectAlternativeNames {
                for name in alternatives {
                    switch name {
                    case .dnsName(let dns): names.append(dns)
                    case .ipAddress(let bytes): names.append(IPAddressText.text(Array(bytes.bytes)))
                    default: continue
                    }
                }
            }
            return AgentCertificate(certificatePath: certificatePath, keyPath: keyPath, fingerprint: fingerprint,
                                    notValidAfter: certificate.notValidAfter, names: names, madeByAgent: madeByAgent)
        } catch let error as AgentCertificateError {
            throw error
        } catch {
            throw AgentCertificateError(description: "The TLS certificate \(certificatePath) is not a PEM certificate: \(error).")
        }
    }

    static func selfSigned(key: P256.Signing.PrivateKey, names: [String], now: Date) throws -> Certificate {
        let common = names.first { IPAddressText.bytes($0) == nil } ?? "kioskprint"
        let subject = try DistinguishedName {
            OrganizationName("KioskPrint")
            CommonName(common)
        }
        let alternatives = names.map { name -> GeneralName in
            IPAddressText.bytes(name).map { .ipAddress(ASN1OctetString(contentBytes: ArraySlice($0))) } ?? .dnsName(name)
        }
        let extensions = try Certificate.Extensions {
            Critical(BasicConstraints.notCertificateAuthority)
            Critical(KeyUsage(digitalSignature: true))
            try ExtendedKeyUsage([.serverAuth])
            SubjectAlternativeNames(alternatives)
        }
        // An hour's slack before now: a client whose clock is a little behind still accepts it.
        return try Certificate(version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: .init(key.publicKey),
                               notValidBefore: now.addingTimeInterval(-3600), notValidAfter: now.addingTimeInterval(lifetime),
                               issuer: subject, subject: subject, signatureAlgorithm: .ecdsaWithSHA256,
                               extensions: extensions, issuerPrivateKey: .init(key))
    }

    /// Writes `text` to a new file made with `mode`, replacing any old one in one step.
    private static func write(_ text: String, to path: String, mode: mode_t) throws {
        let partial = path + ".partial"
        unlink(partial)
        let descriptor = open(partial, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        let bytes = Array(text.utf8)
        let written = bytes.withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress, $0.count) }
        let synced = fsync(descriptor)
        close(descriptor)
        guard written == bytes.count, synced == 0, rename(partial, path) == 0 else {
            unlink(partial)
            throw POSIXError(.EIO)
        }
    }
}

/// Why the agent's certificate could not be made or read; says what to do.
public struct AgentCertificateError: Error, CustomStringConvertible {
    public let description: String
}

extension CertificateFingerprint {
    /// Pairs of upper-case hex digits with colons, as browsers, iOS and
    /// `openssl x509 -fingerprint -sha256` show a fingerprint.
    public var colonSeparated: String {
        stride(from: 0, to: hex.count, by: 2).map { offset in
            let start = hex.index(hex.startIndex, offsetBy: offset)
            return hex[start..<hex.index(start, offsetBy: 2)].uppercased()
        }.joined(separator: ":")
    }
}
