import Foundation
import GRDB
import PrintModel
import Testing
@testable import Store

/// A command's store: one connection, opened without writing, on the same
/// WAL database the agent keeps open with its pool.
@Suite struct CommandStoreTests {
    let receipt = try! Role("receipt")

    static func walSize(_ path: String) -> Int? {
        (try? FileManager.default.attributesOfItem(atPath: path + "-wal"))?[.size] as? Int
    }

    @Test func aNewFileIsPutInWALModeByTheFirstCommand() async throws {
        let path = temporaryStorePath()
        #expect(!KioskStore.isInWALMode(path))
        let store = try KioskStore(path: path, use: .command)
        #expect(store.database is DatabaseQueue)
        #expect(KioskStore.isInWALMode(path))
        let mode = try await store.database.read { try String.fetchOne($0, sql: "PRAGMA journal_mode") }
        #expect(mode == "wal")
        // As durable as the agent's: every commit that must survive a power cut is synced.
        let level = try await store.database.writeWithoutTransaction { try Int.fetchOne($0, sql: "PRAGMA synchronous") }
        #expect(level == 2)
    }

    /// The agent's pool, opened where the last close had deleted the WAL,
    /// writes a table into it before anything else; a command does not.
    @Test func aCommandOpensAnExistingDatabaseWithoutWriting() async throws {
        let path = temporaryStorePath()
        do {
            let first = try KioskStore(path: path)
            _ = try await first.enqueue(name: "Receipt 1", role: receipt, content: .template(name: "receipt", dataJSON: "{}"))
        }
        #expect(Self.walSize(path) == nil)  // the last close checkpointed and deleted it

        do {
            let command = try KioskStore(path: path, use: .command)
            #expect((Self.walSize(path) ?? 0) == 0)
            #expect(try await command.jobs(includeFinished: true).count == 1)
            #expect((Self.walSize(path) ?? 0) == 0)
        }

        let pool = try KioskStore(path: path)
        #expect(pool.database is DatabasePool)
        #expect((Self.walSize(path) ?? 0) > 0)
    }

    /// A command beside a running agent: each sees what the other commits.
    @Test func aCommandAndTheAgentShareTheDatabase() async throws {
        let path = temporaryStorePath()
        let agent = try KioskStore(path: path)
        let command = try KioskStore(path: path, use: .command)
        let queued = try await command.enqueue(name: "Receipt 1", role: receipt, content: .template(name: "receipt", dataJSON: "{}"))
        let claimed = try #require(try await agent.claimNext(role: receipt, owner: "agent", lease: .seconds(30)))
        #expect(claimed.id == queued.id)
        #expect(try await command.job(queued.id).claimedBy == "agent")
    }
}
