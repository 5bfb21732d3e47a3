import Foundation
import GRDB

/// The job row read and written column by column. Every job is read and
/// written several times on its way (claimed, marked sending and sent,
/// followed, finished); GRDB's Codable path decodes through a keyed
/// container per row, which profiling showed as a steady part of the
/// spooler's own CPU per receipt. The columns and their encodings are the
/// ones the Codable conformance used (dates as GRDB's text, written by
/// `StoredDate`; booleans as 0/1),
/// so rows written by either read back the same.
extension JobRecord {
    init(row: Row) {
        id = row["id"]
        name = row["name"]
        role = row["role"]
        contentKind = row["contentKind"]
        templateName = row["templateName"]
        templateData = row["templateData"]
        documentPath = row["documentPath"]
        documentFormat = row["documentFormat"]
        copies = row["copies"]
        state = row["state"]
        createdAt = row["createdAt"]
        updatedAt = row["updatedAt"]
        printerId = row["printerId"]
        printerName = row["printerName"]
        printerUri = row["printerUri"]
        printerJobId = row["printerJobId"]
        attempts = row["attempts"]
        nextAttemptAt = row["nextAttemptAt"]
        lastError = row["lastError"]
        stateReasons = row["stateReasons"]
        impressionsCompleted = row["impressionsCompleted"]
        pagesExpected = row["pagesExpected"]
        cutLengths = row["cutLengths"]
        marker = row["marker"]
        cancelRequested = row["cancelRequested"]
        completedAt = row["completedAt"]
        claimedBy = row["claimedBy"]
        claimExpiresAt = row["claimExpiresAt"]
        source = row["source"]
        opensDrawer = row["opensDrawer"]
        idempotencyKey = row["idempotencyKey"]
        requestSHA256 = row["requestSHA256"]
        submittedBy = row["submittedBy"]
    }

    func encode(to container: inout PersistenceContainer) {
        container["id"] = id
        container["name"] = name
        container["role"] = role
        container["contentKind"] = contentKind
        container["templateName"] = templateName
        container["templateData"] = templateData
        container["documentPath"] = documentPath
        container["documentFormat"] = documentFormat
        container["copies"] = copies
        container["state"] = state
        container["createdAt"] = StoredDate(createdAt)
        container["updatedAt"] = StoredDate(updatedAt)
        container["printerId"] = printerId
        container["printerName"] = printerName
        container["printerUri"] = printerUri
        container["printerJobId"] = printerJobId
        container["attempts"] = attempts
        container["nextAttemptAt"] = nextAttemptAt.map(StoredDate.init)
        container["lastError"] = lastError
        container["stateReasons"] = stateReasons
        container["impressionsCompleted"] = impressionsCompleted
        container["pagesExpected"] = pagesExpected
        container["cutLengths"] = cutLengths
        container["marker"] = marker
        container["cancelRequested"] = cancelRequested
        container["completedAt"] = completedAt.map(StoredDate.init)
        container["claimedBy"] = claimedBy
        container["claimExpiresAt"] = claimExpiresAt.map(StoredDate.init)
        container["source"] = source
        container["opensDrawer"] = opensDrawer
        container["idempotencyKey"] = idempotencyKey
        container["requestSHA256"] = requestSHA256
        container["submittedBy"] = submittedBy
    }

    /// One job row by id, through a statement compiled once per connection.
    static func fetch(_ db: Database, id: Int64) throws -> JobRecord? {
        try JobRecord.fetchOne(db.cachedStatement(sql: "SELECT * FROM job WHERE id = ?"), arguments: [id])
    }
}
