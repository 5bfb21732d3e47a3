public import PrintModel
import GRDB

extension KioskStore {
    /// Pins `fingerprint` as the certificate the saved printer must present,
    /// if its pin is still `expected` (nil: not pinned yet). Returns false,
    /// changing nothing, when another process changed the pin meanwhile or
    /// the printer is gone: the caller read a pin that is no longer the one saved.
    @discardableResult
    public func pinCertificate(printerID: Int64, to fingerprint: CertificateFingerprint,
                               replacing expected: CertificateFingerprint?) async throws -> Bool {
        try await database.write { db in
            try db.execute(sql: """
                UPDATE printer SET certificateSHA256 = ?1 WHERE id = ?2 AND certificateSHA256 IS ?3
                """, arguments: [fingerprint.hex, printerID, expected?.hex])
            return db.changesCount == 1
        }
    }
}
