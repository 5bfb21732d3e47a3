import GRDB

extension KioskStore {
    /// The schema's history. A migration, once released, is never edited:
    /// changes come as new migrations, so every kiosk's database upgrades in place.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1-printers-and-roles") { db in
            try db.create(table: "printer") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("uri", .text).notNull().unique()
                t.column("uuid", .text).indexed()
                t.column("serviceName", .text)
                t.column("name", .text).notNull()
                // The capabilities read at the last contact, as JSON: the
                // renderer and spooler need all of them and query none.
                t.column("capabilities", .text).notNull()
                t.column("addedAt", .datetime).notNull()
                t.column("contactedAt", .datetime).notNull()
            }
            try db.create(table: "roleAssignment") { t in
                t.column("role", .text).notNull()
                t.column("printerId", .integer).notNull().references("printer", onDelete: .cascade)
                // 0 is the primary; backups follow in order.
                t.column("position", .integer).notNull()
                t.primaryKey(["role", "printerId"])
            }
        }
        return migrator
    }
}
