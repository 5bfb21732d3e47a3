public import Foundation
import GRDB
public import PrintModel

/// Where a printer goes in a role.
public enum RolePlace: Sendable {
    /// The printer the role prints to. It replaces the current primary, which
    /// leaves the role.
    case primary
    /// A printer to fail over to, after the primary and any earlier backups.
    case backup
}

/// What saving a printer to a role did.
public struct AssignmentOutcome: Sendable {
    public var assignment: RoleAssignment
    /// The primary this one replaced, if any.
    public var replaced: SavedPrinter?
    /// The certificate pin this save replaced: the printer was saved before
    /// and presented another certificate this time. Nil otherwise.
    public var replacedPin: CertificateFingerprint?
}

extension KioskStore {
    /// Saves a contacted printer (by URI: saving the same URI again refreshes
    /// it) and places it in `role`. One transaction: a failure changes nothing.
    /// `certificate`, the one an ipps printer presented, becomes its pin (an
    /// administrator's save is what trust on first use trusts); nil keeps the
    /// pin it had, if any.
    public func assign(uri: String, serviceName: String?, capabilities: PrinterCapabilities,
                       certificate: CertificateFingerprint? = nil,
                       to role: Role, as place: RolePlace, at date: Date = Date()) async throws -> AssignmentOutcome {
        try await writeGivingWork { db in
            let (printer, replacedPin) = try Self.upsertPrinter(db, uri: uri, serviceName: serviceName,
                                                                capabilities: capabilities, certificate: certificate,
                                                                at: date)
            let printerID = printer.id!
            var members = try Self.members(db, of: role)
            var replaced: SavedPrinter?

            if let existing = members.firstIndex(where: { $0.printerId == printerID }) {
                let rank = existing == 0 ? "primary" : "backup \(existing)"
                if place == .backup || existing == 0 {
                    throw StoreError.alreadyInRole(printer: printer.name, role: role.name, rank: rank)
                }
                members.remove(at: existing)  // a backup promoted to primary
            }
            switch place {
            case .primary:
                if let current = members.first {
                    replaced = try PrinterRecord.fetchOne(db, key: current.printerId)?.saved()
                    members.removeFirst()
                }
                members.insert(RoleAssignmentRecord(role: role.name, printerId: printerID, position: 0), at: 0)
            case .backup:
                members.append(RoleAssignmentRecord(role: role.name, printerId: printerID, position: 0))
            }
            try Self.replaceMembers(db, of: role, with: members)
            if let replaced { try Self.deleteIfUnused(db, printerID: replaced.id) }

            let position = members.firstIndex { $0.printerId == printerID }!
            return AssignmentOutcome(
                assignment: RoleAssignment(role: role, position: position, printer: try printer.saved()),
                replaced: replaced, replacedPin: replacedPin)
        }
    }

    /// Every role's printers, by role name, then primary first.
    public func assignments(for role: Role? = nil) async throws -> [RoleAssignment] {
        try await database.read { db in
            // Compiled once per connection: asked at every intake and delivery.
            let rows = try Row.fetchAll(db.cachedStatement(sql: """
                SELECT roleAssignment.role, roleAssignment.position, printer.*
                FROM roleAssignment JOIN printer ON printer.id = roleAssignment.printerId
                WHERE ?1 IS NULL OR roleAssignment.role = ?1
                ORDER BY roleAssignment.role, roleAssignment.position
                """), arguments: [role?.name])
            return try rows.map { row in
                let record = try PrinterRecord(row: row)
                return RoleAssignment(role: try Role(row["role"] as String), position: row["position"],
                                      printer: try record.saved())
            }
        }
    }

    /// The printer a person means by `reference`: its id, URI, name or DNS-SD
    /// service name (names compared without regard to case).
    public func findPrinter(_ reference: String) async throws -> SavedPrinter {
        try await database.read { db in
            let record = try PrinterRecord.fetchOne(db, sql: """
                SELECT * FROM printer
                WHERE CAST(id AS TEXT) = ?1 OR uri = ?1 OR name = ?1 COLLATE NOCASE OR serviceName = ?1 COLLATE NOCASE
                ORDER BY id LIMIT 1
                """, arguments: [reference])
            guard let record else { throw StoreError.printerNotFound(reference) }
            return try record.saved()
        }
    }

    /// Takes the printer out of `role` (or of every role when nil). A printer
    /// left with no role is forgotten. Returns the roles it left.
    @discardableResult
    public func remove(printerID: Int64, from role: Role? = nil) async throws -> [Role] {
        try await writeGivingWork { db in
            let roles = try String.fetchAll(db, sql: """
                SELECT role FROM roleAssignment WHERE printerId = ? AND (?2 IS NULL OR role = ?2) ORDER BY role
                """, arguments: [printerID, role?.name]).map { try Role($0) }
            for left in roles {
                let remaining = try Self.members(db, of: left).filter { $0.printerId != printerID }
                try Self.replaceMembers(db, of: left, with: remaining)
            }
            if role == nil {
                _ = try PrinterRecord.deleteOne(db, key: printerID)
            } else {
                try Self.deleteIfUnused(db, printerID: printerID)
            }
            return roles
        }
    }

    /// Records what a new contact with the printer found.
    public func recordContact(printerID: Int64, capabilities: PrinterCapabilities, at date: Date = Date()) async throws {
        try await database.write { db in
            try db.execute(sql: "UPDATE printer SET capabilities = ?, name = ?, contactedAt = ? WHERE id = ?",
                           arguments: [try PrinterRecord.encode(capabilities), capabilities.name, date, printerID])
        }
    }

    // MARK: - Inside a transaction

    /// The printer as saved now, and the pin this save replaced (when it changed).
    private static func upsertPrinter(_ db: Database, uri: String, serviceName: String?,
                                      capabilities: PrinterCapabilities, certificate: CertificateFingerprint?,
                                      at date: Date) throws -> (PrinterRecord, replacedPin: CertificateFingerprint?) {
        let json = try PrinterRecord.encode(capabilities)
        if var existing = try PrinterRecord.filter(Column("uri") == uri).fetchOne(db) {
            let previous = existing.certificateSHA256.flatMap(CertificateFingerprint.init)
            existing.capabilities = json
            existing.name = capabilities.name
            existing.uuid = capabilities.uuid ?? existing.uuid
            existing.serviceName = serviceName ?? existing.serviceName
            existing.contactedAt = date
            existing.certificateSHA256 = certificate?.hex ?? existing.certificateSHA256
            try existing.update(db)
            return (existing, certificate != nil && previous != certificate ? previous : nil)
        }
        var record = PrinterRecord(id: nil, uri: uri, uuid: capabilities.uuid, serviceName: serviceName,
                                   name: capabilities.name, capabilities: json, addedAt: date, contactedAt: date,
                                   certificateSHA256: certificate?.hex)
        try record.insert(db)
        return (record, nil)
    }

    private static func members(_ db: Database, of role: Role) throws -> [RoleAssignmentRecord] {
        try RoleAssignmentRecord.filter(Column("role") == role.name).order(Column("position")).fetchAll(db)
    }

    /// Rewrites a role's list with positions 0, 1, 2... in the given order.
    private static func replaceMembers(_ db: Database, of role: Role, with members: [RoleAssignmentRecord]) throws {
        try RoleAssignmentRecord.filter(Column("role") == role.name).deleteAll(db)
        for (position, member) in members.enumerated() {
            try RoleAssignmentRecord(role: role.name, printerId: member.printerId, position: position).insert(db)
        }
    }

    private static func deleteIfUnused(_ db: Database, printerID: Int64) throws {
        try db.execute(sql: """
            DELETE FROM printer WHERE id = ? AND NOT EXISTS (SELECT 1 FROM roleAssignment WHERE printerId = printer.id)
            """, arguments: [printerID])
    }
}

extension KioskStore {
    /// Records a saved printer's new address (it was found again by its
    /// UUID): its roles, capabilities and history stay as they were.
    /// Returns the printer as now saved.
    @discardableResult
    public func moveSavedPrinter(printerID: Int64, to uri: String) async throws -> SavedPrinter {
        try await writeGivingWork { db in
            guard var record = try PrinterRecord.fetchOne(db, key: printerID) else {
                throw StoreError.printerNotFound("\(printerID)")
            }
            record.uri = uri
            try record.update(db)
            return try record.saved()
        }
    }
}
