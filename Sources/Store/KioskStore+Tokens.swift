import Crypto
import Foundation
import GRDB

/// The HTTP API's bearer tokens: created and revoked by the administrator
/// (`kioskprint tokens`), checked by the agent at every request.
extension KioskStore {
    /// Creates a token named `name` with `scopes` and returns it with its
    /// secret, which only this result ever holds: the database keeps its SHA-256.
    ///
    /// Throws ``TokenError/invalidName(_:)``, ``TokenError/noScopes``, or
    /// ``TokenError/nameTaken(_:)`` when a token of that name exists.
    public func addToken(name: String, scopes: Set<TokenScope>) async throws -> NewToken {
        try await addToken(name: name, scopes: scopes, at: Date())
    }

    /// ``addToken(name:scopes:)`` as if at `date`.
    func addToken(name: String, scopes: Set<TokenScope>, at date: Date) async throws -> NewToken {
        try APIToken.validateName(name)
        guard !scopes.isEmpty else { throw TokenError.noScopes }
        let secret = Self.makeTokenSecret()
        do {
            let token = try await database.write { db in
                let row = try Row.fetchOne(db, sql: """
                    INSERT INTO apiToken (name, scopes, secretSHA256, createdAt) VALUES (?, ?, ?, ?) RETURNING *
                    """, arguments: [name, Self.column(scopes), Self.tokenHash(secret), date])
                return try Self.token(from: row!)
            }
            return NewToken(token: token, secret: secret)
        } catch let error as DatabaseError
            where error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE && error.message?.contains("apiToken.name") == true {
            // The UNIQUE constraint, not a look-up first, decides: it also
            // holds when two administrators add the same name at once.
            throw TokenError.nameTaken(name)
        }
    }

    /// Every token, by name. Secrets are never stored, so none is returned.
    public func tokens() async throws -> [APIToken] {
        try await database.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM apiToken ORDER BY name").map(Self.token(from:))
        }
    }

    /// Deletes the token named `name`; its secret stops working at once.
    /// Returns false when there is no such token.
    public func revokeToken(named name: String) async throws -> Bool {
        try await database.write { db in
            try db.execute(sql: "DELETE FROM apiToken WHERE name = ?", arguments: [name])
            return db.changesCount > 0
        }
    }

    /// The token whose secret is `secret`, or nil when none is (a wrong,
    /// revoked or malformed secret).
    ///
    /// Notes the use in `lastUsedAt` at most once a minute: a POS polling
    /// its job writes nothing, so reading does not wait for the writer or
    /// wear an SD card.
    public func authenticate(secret: String) async throws -> APIToken? {
        try await authenticate(secret: secret, at: Date())
    }

    /// ``authenticate(secret:)`` as if at `date`.
    func authenticate(secret: String, at date: Date) async throws -> APIToken? {
        // A string that cannot be a secret is refused without a query: a
        // client sending garbage costs neither a hash nor a database read.
        guard secret.utf8.count == Self.tokenSecretLength, secret.hasPrefix(Self.tokenSecretPrefix) else { return nil }
        // The look-up is by the hash, on its unique index. Comparing hashes,
        // not secrets, is also why its timing tells an attacker nothing about
        // a secret: a guess that shares a prefix with a real secret shares
        // nothing with its hash.
        let hash = Self.tokenHash(secret)
        let found = try await database.read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM apiToken WHERE secretSHA256 = ?", arguments: [hash]).map(Self.token(from:))
        }
        guard let found else { return nil }
        if let last = found.lastUsedAt, abs(date.timeIntervalSince(last)) < Self.lastUseResolution { return found }
        // The condition is checked again in the UPDATE: of requests arriving
        // together, one writes. A clock set back by more than the resolution
        // writes too, so lastUsedAt does not stay in the future for good.
        let noted = try? await database.write { db in
            try Row.fetchOne(db, sql: """
                UPDATE apiToken SET lastUsedAt = ?1
                WHERE id = ?2 AND (lastUsedAt IS NULL OR lastUsedAt <= ?3 OR lastUsedAt >= ?4)
                RETURNING *
                """, arguments: [date, found.id, date - Self.lastUseResolution, date + Self.lastUseResolution])
                .map(Self.token(from:))
        }
        // The note is bookkeeping: when it cannot be written (the disk is
        // full, the file read-only) the request still goes through, since
        // reading the status is exactly what a technician needs then.
        return noted ?? found
    }

    /// How stale `lastUsedAt` may get before a request writes it, in seconds.
    static let lastUseResolution: TimeInterval = 60

    static let tokenSecretPrefix = "kp_"
    /// `kp_` and 32 bytes in base64url without padding (43 characters).
    static let tokenSecretLength = 3 + 43

    /// `kp_` and 32 bytes from the system's secure generator, in base64url
    /// without padding, so it goes in an HTTP header or a URL unescaped.
    /// The prefix lets a leaked secret be recognized (by a person, or a
    /// secret scanner) as a KioskPrint token.
    static func makeTokenSecret() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        let base64url = Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
        return tokenSecretPrefix + base64url
    }

    /// The SHA-256 of the secret's UTF-8 bytes, as 64 lowercase hex digits.
    static func tokenHash(_ secret: String) -> String {
        let hexDigits = Array("0123456789abcdef".utf8)
        var hex: [UInt8] = []
        hex.reserveCapacity(64)
        for byte in SHA256.hash(data: Data(secret.utf8)) {
            hex.append(hexDigits[Int(byte >> 4)])
            hex.append(hexDigits[Int(byte & 0x0F)])
        }
        return String(decoding: hex, as: UTF8.self)
    }

    /// The `scopes` column: the scopes' names, sorted, comma-separated.
    static func column(_ scopes: Set<TokenScope>) -> String {
        scopes.map(\.rawValue).sorted().joined(separator: ",")
    }

    static func token(from row: Row) throws -> APIToken {
        // A scope this version does not know (written by a newer one) is
        // left out rather than refused: the token keeps working, with no
        // more rights than this version can tell it has.
        let scopes = Set((row["scopes"] as String).split(separator: ",").compactMap { TokenScope(rawValue: String($0)) })
        return APIToken(id: row["id"], name: row["name"], scopes: scopes, createdAt: row["createdAt"], lastUsedAt: row["lastUsedAt"])
    }
}
