public import Foundation
public import PrintModel
import Synchronization

/// Which roles cannot make progress now, and why: a role's loop that failed
/// (the disk full, the database locked or damaged) and has not yet claimed
/// or looked for a job since. The agent turns it into systemd's STATUS, the
/// watchdog and a file `kioskprint status` reads.
public final class RoleHealth: Sendable {
    /// A role whose loop keeps failing.
    public struct Failure: Sendable, Hashable, Codable {
        public var role: String
        public var reason: String
        /// When it first failed, without a success since.
        public var since: Date
        /// Failures in a row.
        public var count: Int
    }

    private let failures = Mutex<[Role: Failure]>([:])

    public init() {}

    /// Records a failure of `role`'s loop; returns its failures in a row.
    func failed(_ role: Role, reason: String, at date: Date = Date()) -> Int {
        failures.withLock { failures in
            var failure = failures[role] ?? Failure(role: role.name, reason: reason, since: date, count: 0)
            failure.reason = reason
            failure.count += 1
            failures[role] = failure
            return failure.count
        }
    }

    func madeProgress(_ role: Role) {
        failures.withLock { failures in
            if failures[role] != nil { failures[role] = nil }
        }
    }

    /// The roles that have failed `times` times in a row or more, by name.
    public func stuck(after times: Int = 3) -> [Failure] {
        failures.withLock { $0.values.filter { $0.count >= times }.sorted { $0.role < $1.role } }
    }
}

extension RoleHealth {
    /// The file beside the database where the running agent keeps its stuck
    /// roles, for `kioskprint status` (another process) to read: absent while
    /// every role makes progress.
    public static func filePath(forDatabase database: String) -> String {
        (database as NSString).deletingLastPathComponent + "/agent.health"
    }

    /// Writes `failures` to the file (removes it when there are none).
    /// Best effort: on a full disk the write itself may fail, and the agent's
    /// log and systemd's STATUS still say why.
    public static func record(_ failures: [Failure], forDatabase database: String) {
        let path = filePath(forDatabase: database)
        guard !failures.isEmpty else {
            unlink(path)
            return
        }
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        guard let data = try? encoder.encode(failures) else { return }
        try? data.write(to: URL(fileURLWithPath: path), options: .atomic)
    }

    /// The stuck roles the running agent last recorded; empty when none (or no agent).
    public static func recorded(forDatabase database: String) -> [Failure] {
        guard let data = FileManager.default.contents(atPath: filePath(forDatabase: database)) else { return [] }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return (try? decoder.decode([Failure].self, from: data)) ?? []
    }
}
