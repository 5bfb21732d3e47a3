import Foundation
import GRDB
import PrintModel
@testable import Store

extension KioskStore {
    /// Gives a job's row a content kind this version does not know, as a
    /// newer KioskPrint or a damaged file could leave it.
    func markUnreadableForTest(_ id: JobID) async throws {
        try await database.write { db in
            try db.execute(sql: "UPDATE job SET contentKind = 'hologram' WHERE id = ?", arguments: [id.rawValue])
        }
    }
}
