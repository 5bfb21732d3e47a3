public import Foundation
import GRDB

/// Named counters that survive restarts: the number on a take-a-number ticket.
extension KioskStore {
    /// Takes the counter's next number (1 for a counter never used) and
    /// returns it once the commit is on disk, so a number is never given out
    /// twice, even across a crash.
    ///
    /// - Parameter limit: the last number before the counter starts again
    ///   at 1, as a ticket roll's 1 to 999 does; nil counts on for ever.
    public func nextNumber(of counter: String, wrappingAfter limit: Int? = nil, at date: Date = Date()) async throws -> Int {
        try await database.write { db in
            try Int.fetchOne(db, sql: """
                INSERT INTO counter (name, value, updatedAt) VALUES (?1, 1, ?2)
                ON CONFLICT(name) DO UPDATE
                    SET value = CASE WHEN ?3 IS NOT NULL AND value >= ?3 THEN 1 ELSE value + 1 END, updatedAt = ?2
                RETURNING value
                """, arguments: [counter, date, limit]) ?? 1
        }
    }

    /// The counter's last number given out; nil for a counter never used.
    /// For tests and benchmarks (the agent only takes numbers): SPI, since
    /// the benchmarks are a package of their own, which `package` access does not reach.
    @_spi(Testing) public func currentNumber(of counter: String) async throws -> Int? {
        try await database.read { db in
            try Int.fetchOne(db, sql: "SELECT value FROM counter WHERE name = ?", arguments: [counter])
        }
    }
}
