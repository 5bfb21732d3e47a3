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
        migrator.registerMigration("v2-jobs") { db in
            // autoIncrementedPrimaryKey is AUTOINCREMENT: an id is never given
            // out twice, even after jobs are deleted, so ids and markers stay unique.
            try db.create(table: "job") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull()
                t.column("role", .text).notNull()
                // JobContent, one column per field: "template" uses templateName
                // and templateData (JSON), "document" documentPath and documentFormat.
                t.column("contentKind", .text).notNull()
                t.column("templateName", .text)
                t.column("templateData", .text)
                t.column("documentPath", .text)
                t.column("documentFormat", .text)
                t.column("copies", .integer).notNull().defaults(to: 1).check { $0 >= 1 }
                t.column("state", .text).notNull()
                t.column("createdAt", .datetime).notNull()
                t.column("updatedAt", .datetime).notNull()
                // No foreign key: the job keeps naming the printer it went to
                // after that printer is removed.
                t.column("printerId", .integer)
                t.column("printerName", .text)
                t.column("printerUri", .text)
                t.column("printerJobId", .integer)
                t.column("attempts", .integer).notNull().defaults(to: 0)
                t.column("nextAttemptAt", .datetime)
                t.column("lastError", .text)
                t.column("stateReasons", .text).notNull().defaults(to: "[]")  // JSON array of keywords
                t.column("impressionsCompleted", .integer).notNull().defaults(to: 0)
                t.column("pagesExpected", .integer)
                t.column("cutLengths", .text)  // JSON array, hundredths of a millimetre
                t.column("marker", .text).notNull().unique()
                t.column("cancelRequested", .boolean).notNull().defaults(to: false)
                t.column("completedAt", .datetime)
                // The spooler process holding the job, until claimExpiresAt.
                t.column("claimedBy", .text)
                t.column("claimExpiresAt", .datetime)
            }
            // The head of a role's queue (claimNext) and the unfinished jobs (queue depth, lists).
            try db.create(index: "job_role_state_id", on: "job", columns: ["role", "state", "id"])
            try db.create(index: "job_state", on: "job", columns: ["state"])
        }
        migrator.registerMigration("v3-counters") { db in
            // Take-a-number counters: one row per named counter, the last number given out.
            try db.create(table: "counter") { t in
                t.primaryKey("name", .text)
                t.column("value", .integer).notNull()
                t.column("updatedAt", .datetime).notNull()
            }
        }
        migrator.registerMigration("v4-job-source") { db in
            try db.alter(table: "job") { t in t.add(column: "source", .text) }
            try db.create(index: "job_source", on: "job", columns: ["source"])
        }
        migrator.registerMigration("v5-job-drawer") { db in
            // Kick the cash drawer after the job's cut (a sale receipt).
            try db.alter(table: "job") { t in t.add(column: "opensDrawer", .boolean).notNull().defaults(to: false) }
        }
        migrator.registerMigration("v6-printer-certificate-pin") { db in
            // The SHA-256 of the DER certificate an ipps printer presented when it
            // was saved (64 lowercase hex digits); every later ipps exchange must
            // see the same. NULL: ipp, raw, or saved before pins (pinned by the
            // administrator's next `printers check`).
            try db.alter(table: "printer") { t in t.add(column: "certificateSHA256", .text) }
        }
        migrator.registerMigration("v7-job-retention") { db in
            // A purge deletes a job's spool file only when no remaining job
            // names it (a reprint names its original's file): one look-up per file.
            try db.execute(sql: "CREATE INDEX job_document ON job(documentPath) WHERE documentPath IS NOT NULL")
        }
        migrator.registerMigration("v8-api-tokens") { db in
            // Bearer tokens of the HTTP API. Only the secret's SHA-256 is kept
            // (64 lowercase hex digits): a copied database or backup lets no one
            // in. The secret is 32 random bytes, so a plain hash is enough (there
            // is nothing to guess, unlike a password). Its UNIQUE index is how a
            // request's token is found: one look-up, never a scan.
            try db.create(table: "apiToken") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull().unique()
                t.column("scopes", .text).notNull()  // comma-separated, sorted: "print,read"
                t.column("secretSHA256", .text).notNull().unique()
                t.column("createdAt", .datetime).notNull()
                t.column("lastUsedAt", .datetime)
            }
        }
        migrator.registerMigration("v9-job-idempotency") { db in
            // An HTTP request's Idempotency-Key, committed with the job it
            // queued: a retry after a lost response (or an agent restart
            // between the commit and the response) finds the job, not a
            // second print. requestSHA256 tells a true retry from a key reused
            // for another request.
            try db.alter(table: "job") { t in
                t.add(column: "idempotencyKey", .text)
                t.add(column: "requestSHA256", .text)
            }
            try db.execute(sql: "CREATE UNIQUE INDEX job_idempotency ON job(idempotencyKey) WHERE idempotencyKey IS NOT NULL")
        }
        migrator.registerMigration("v10-job-submitter") { db in
            // The API token that queued a job: a `print` token may cancel or
            // retry only its own jobs (a till must not cancel another till's
            // receipt, nor reprint a held boarding pass). Jobs from before
            // this have none, so only an admin token may act on them.
            try db.alter(table: "job") { t in t.add(column: "submittedBy", .text) }
        }
        return migrator
    }
}
