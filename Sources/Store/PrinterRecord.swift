import Foundation
import GRDB
import PrintModel

/// A row of the `printer` table. Internal: callers see `SavedPrinter`.
struct PrinterRecord: Codable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "printer"
    var id: Int64?
    var uri: String
    var uuid: String?
    var serviceName: String?
    var name: String
    var capabilities: String
    var addedAt: Date
    var contactedAt: Date
    /// `CertificateFingerprint.hex` of the pinned certificate.
    var certificateSHA256: String?

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }

    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }()

    static func encode(_ capabilities: PrinterCapabilities) throws -> String {
        String(decoding: try encoder.encode(capabilities), as: UTF8.self)
    }

    func saved() throws(StoreError) -> SavedPrinter {
        let decoded: PrinterCapabilities
        do {
            decoded = try DecodedCapabilities.decode(capabilities)
        } catch {
            throw StoreError.corrupt(what: "the capabilities of \(name) (\(uri))", reason: "\(error)")
        }
        var pin: CertificateFingerprint?
        if let certificateSHA256 {
            guard let read = CertificateFingerprint(certificateSHA256) else {
                throw StoreError.corrupt(what: "the pinned certificate of \(name) (\(uri))",
                                         reason: "'\(certificateSHA256)' is not a SHA-256 fingerprint")
            }
            pin = read
        }
        return SavedPrinter(id: id ?? 0, uri: uri, uuid: uuid, serviceName: serviceName,
                            capabilities: decoded, addedAt: addedAt, contactedAt: contactedAt, certificatePin: pin)
    }
}

/// A row of the `roleAssignment` table.
struct RoleAssignmentRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "roleAssignment"
    var role: String
    var printerId: Int64
    var position: Int
}
