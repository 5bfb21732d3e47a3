import Foundation
import PrintModel
import Testing

/// Fingerprints as people and tools write them.
@Suite struct CertificateFingerprintTests {
    static let hex = "3f2a9c0e11b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f6071829304a5b"

    @Test func readsPlainColonsUpperCaseAndOpensslsPrefix() throws {
        let plain = try #require(CertificateFingerprint(Self.hex))
        #expect(plain.hex == Self.hex)
        #expect(plain.short == "3f2a9c0e11b2c3d4")
        let pairs = stride(from: 0, to: 64, by: 2).map { offset -> String in
            let start = Self.hex.index(Self.hex.startIndex, offsetBy: offset)
            return String(Self.hex[start..<Self.hex.index(start, offsetBy: 2)]).uppercased()
        }.joined(separator: ":")
        #expect(CertificateFingerprint(pairs) == plain)
        #expect(CertificateFingerprint("sha256 Fingerprint=\(pairs)\n") == plain)
        #expect(CertificateFingerprint("SHA256:\(Self.hex)") == plain)
    }

    @Test func refusesWhatIsNotThirtyTwoBytesOfHex() {
        #expect(CertificateFingerprint(String(Self.hex.dropLast(2))) == nil)
        #expect(CertificateFingerprint(Self.hex + "00") == nil)
        #expect(CertificateFingerprint(String(Self.hex.dropLast()) + "g") == nil)
        #expect(CertificateFingerprint("") == nil)
        #expect(CertificateFingerprint(digest: [1, 2, 3]) == nil)
    }

    @Test func digestBytesAndJSONRoundTrip() throws {
        let digest: [UInt8] = (0..<32).map { UInt8($0 * 8) }
        let fingerprint = try #require(CertificateFingerprint(digest: digest))
        #expect(fingerprint.hex.hasPrefix("000810182028"))
        let json = try JSONEncoder().encode([fingerprint])
        #expect(String(decoding: json, as: UTF8.self) == "[\"\(fingerprint.hex)\"]")
        #expect(try JSONDecoder().decode([CertificateFingerprint].self, from: json) == [fingerprint])
    }
}
