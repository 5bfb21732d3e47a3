import Foundation

/// The SHA-256 fingerprint of a printer's TLS certificate (of the DER bytes of
/// its leaf certificate): what is pinned when an administrator saves an
/// `ipps://` printer, and compared at every later ipps connection.
///
/// Written as 64 lowercase hex digits, as `sha256sum` writes a digest.
/// Reading accepts the forms other tools print as well: upper case, and
/// colons between the bytes (`openssl x509 -fingerprint -sha256`).
public struct CertificateFingerprint: Hashable, Sendable, Codable, CustomStringConvertible {
    /// 64 lowercase hex digits.
    public let hex: String

    /// Reads a fingerprint as a person or another tool writes it; nil unless
    /// it holds exactly 32 bytes in hex. A leading `SHA256:` or `sha256=` is allowed.
    public init?(_ text: String) {
        var digits = Substring(text.trimmingCharacters(in: .whitespacesAndNewlines))
        for prefix in ["sha256:", "sha256=", "sha256 fingerprint="] where digits.lowercased().hasPrefix(prefix) {
            digits = digits.dropFirst(prefix.count)
        }
        let hex = digits.filter { $0 != ":" && $0 != " " }.lowercased()
        guard hex.count == 64, hex.allSatisfy({ $0.isHexDigit }) else { return nil }
        self.hex = hex
    }

    /// The fingerprint of a digest's 32 bytes.
    public init?(digest: [UInt8]) {
        guard digest.count == 32 else { return nil }
        hex = digest.map { byte in
            let digits = String(byte, radix: 16)
            return digits.count == 1 ? "0" + digits : digits
        }.joined()
    }

    /// The first 16 hex digits (64 bits), for tables: enough to tell two certificates apart at a glance.
    public var short: String { String(hex.prefix(16)) }

    public var description: String { hex }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let read = CertificateFingerprint(text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                                                    debugDescription: "'\(text)' is not a SHA-256 fingerprint"))
        }
        self = read
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(hex)
    }
}
