import Foundation
import GRDB
import PrintModel
@testable import Store
import Synchronization
import Testing

/// A row this version cannot read (a content kind from a newer KioskPrint,
/// a damaged field) never stops its role: it is set aside, kept, listed, and
/// the jobs behind it are claimed.
@Suite struct SetAsideTests {
    let store: KioskStore

    init() throws {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("kioskprint-setaside-\(UUID().uuidString)/kioskprint.sqlite").path
        store = try KioskStore(path: path)
    }

    /// Queues a job, then gives its row a content kind this version does not know.
    func unreadableJob(role: String) async throws -> PrintJob {
        let job = try await store.enqueue(name: "From the future", role: try Role(role),
                                          content: .template(name: "receipt", dataJSON: "{}"))
        try await store.database.write { db in
            try db.execute(sql: "UPDATE job SET contentKind = 'hologram' WHERE id = ?", arguments: [job.id.rawValue])
        }
        return job
    }

    @Test func anUnreadableRowIsSetAsideAndTheNextJobIsClaimed() async throws {
        let bad = try await unreadableJob(role: "receipt")
        let good = try await store.enqueue(name: "Receipt 4711", role: try Role("receipt"),
                                           content: .template(name: "receipt", dataJSON: "{}"))
        let told = Mutex<[JobID]>([])
        let claimed = try await store.claimNext(role: try Role("receipt"), owner: "test", lease: .seconds(30),
                                                setAside: { id, _ in told.withLock { $0.append(id) } })
        #expect(claimed?.id == good.id)
        #expect(told.withLock { $0 } == [bad.id])

        // Kept and listed, with what was wrong, never a reason for the list to fail.
        let listed = try #require(try await store.jobs(includeFinished: true).first { $0.id == bad.id })
        #expect(listed.state == .setAside && listed.content == .unreadable(kind: "hologram"))
        #expect(listed.lastError?.contains("unknown content kind 'hologram'") == true, "\(listed.lastError ?? "")")
        #expect(try await store.queueDepth(role: try Role("receipt")) == 1)
    }
}
