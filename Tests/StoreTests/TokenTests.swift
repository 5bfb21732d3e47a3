import Foundation
import GRDB
import Testing
@testable import Store

/// The HTTP API's tokens in a real database file: a secret that works until
/// it is revoked, only its hash on disk, names that stay unique, and scopes
/// that include the narrower ones.
@Suite struct TokenTests {
    /// A whole second, so dates survive the database's millisecond precision unchanged.
    let start = Date(timeIntervalSince1970: 1_795_000_000)

    @Test func aSecretAuthenticatesItsTokenUntilTheTokenIsRevoked() async throws {
        let store = try KioskStore(path: temporaryStorePath())
        let created = try await store.addToken(name: "pos-till-3", scopes: [.print, .read])
        #expect(created.token.name == "pos-till-3" && created.token.scopes == [.print, .read])
        #expect(created.token.lastUsedAt == nil)
        // kp_ and 32 bytes in base64url without padding: 43 characters of A-Z a-z 0-9 - _.
        #expect(created.secret.hasPrefix("kp_") && created.secret.count == 46, "\(created.secret)")
        #expect(created.secret.dropFirst(3).allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") })
        #expect(!"\(created)".contains(created.secret), "a NewToken in a log line must not carry its secret")

        let authenticated = try #require(try await store.authenticate(secret: created.secret))
        #expect(authenticated.id == created.token.id && authenticated.name == "pos-till-3")
        #expect(authenticated.scopes == [.print, .read] && authenticated.lastUsedAt != nil)
        #expect(try await store.tokens().map(\.name) == ["pos-till-3"])

        #expect(try await store.revokeToken(named: "pos-till-3"))
        #expect(try await store.authenticate(secret: created.secret) == nil)
        #expect(try await store.tokens().isEmpty)
        #expect(try await store.revokeToken(named: "pos-till-3") == false)
    }

    @Test func twoTokensGetDifferentSecretsAndAreListedByName() async throws {
        let store = try KioskStore(path: temporaryStorePath())
        let till = try await store.addToken(name: "till", scopes: [.print])
        let monitor = try await store.addToken(name: "monitor", scopes: [.read])
        #expect(till.secret != monitor.secret)
        #expect(try await store.tokens().map(\.name) == ["monitor", "till"])
        #expect(try await store.authenticate(secret: monitor.secret)?.name == "monitor")
        #expect(try await store.authenticate(secret: till.secret)?.name == "till")
    }

    @Test func theDatabaseHoldsTheSecretsHashAndNeverTheSecret() async throws {
        let path = temporaryStorePath()
        let store = try KioskStore(path: path)
        let created = try await store.addToken(name: "kiosk", scopes: [.print, .admin])
        let saved = try store.database.read { try Row.fetchOne($0, sql: "SELECT * FROM apiToken") }
        let row = try #require(saved)
        let body = String(created.secret.dropFirst(3))
        for (column, value) in row {
            #expect(!"\(value)".contains(body), "the column \(column) holds the secret")
        }
        #expect(row["secretSHA256"] as String == KioskStore.tokenHash(created.secret))
        #expect(row["scopes"] as String == "admin,print")
        // Nor anywhere in the files SQLite wrote: the database and its write-ahead log.
        for file in [path, path + "-wal"] where FileManager.default.fileExists(atPath: file) {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: file))
            #expect(bytes.range(of: Data(body.utf8)) == nil, "\(file) holds the secret")
        }
    }

    @Test func theHashIsSHA256InLowercaseHex() {
        // The FIPS 180-2 test vector for "abc".
        #expect(KioskStore.tokenHash("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test func aNameAlreadyTakenIsRefusedWithWhatToDoAndTheFirstTokenKeepsWorking() async throws {
        let store = try KioskStore(path: temporaryStorePath())
        let first = try await store.addToken(name: "pos", scopes: [.read])
        await #expect(throws: TokenError.nameTaken("pos")) {
            try await store.addToken(name: "pos", scopes: [.admin])
        }
        let message = TokenError.nameTaken("pos").description
        #expect(message.contains("already exists") && message.contains("kioskprint tokens revoke pos")
            && message.contains("another name"), "\(message)")
        #expect(try await store.authenticate(secret: first.secret)?.scopes == [.read])
        #expect(try await store.tokens().count == 1)
    }

    @Test func aWrongOrMalformedSecretAuthenticatesNothing() async throws {
        let store = try KioskStore(path: temporaryStorePath())
        let created = try await store.addToken(name: "pos", scopes: [.print])
        let savedHash = try await store.database.read { try String.fetchOne($0, sql: "SELECT secretSHA256 FROM apiToken") }
        let hash = try #require(savedHash)
        var oneCharacterOff = Array(created.secret)
        oneCharacterOff[10] = oneCharacterOff[10] == "A" ? "B" : "A"
        let wrong = [KioskStore.makeTokenSecret(), String(oneCharacterOff), "", "kp_", created.secret + "x",
                     "Bearer " + created.secret, created.secret.uppercased(),
                     hash]  // the stored hash itself, as someone holding a copy of the database would try
        for secret in wrong {
            #expect(try await store.authenticate(secret: secret) == nil, "\(secret) authenticated")
        }
    }

    @Test func useIsNotedAtMostOnceAMinute() async throws {
        let store = try KioskStore(path: temporaryStorePath())
        let created = try await store.addToken(name: "pos", scopes: [.print], at: start)
        // Every statement the writer connection runs: a BEGIN that changes
        // nothing would still wait for another process's lock.
        let writes = StatementLog()
        try await store.database.writeWithoutTransaction { db in db.trace { writes.append("\($0)") } }

        #expect(try await store.authenticate(secret: created.secret, at: start + 1)?.lastUsedAt == start + 1)
        #expect(writes.count > 0)
        let before = writes.count
        // Within the minute: the token is found, and the database is not written.
        #expect(try await store.authenticate(secret: created.secret, at: start + 59)?.lastUsedAt == start + 1)
        #expect(writes.count == before, "\(writes.statements)")
        // A minute on: noted again.
        #expect(try await store.authenticate(secret: created.secret, at: start + 61)?.lastUsedAt == start + 61)
        #expect(writes.count > before)
        // A clock set back by an hour notes it too, rather than keeping a date in the future.
        #expect(try await store.authenticate(secret: created.secret, at: start - 3600)?.lastUsedAt == start - 3600)
        #expect(try await store.tokens().first?.lastUsedAt == start - 3600)
    }

    @Test func namesOutsideTheAllowedSetAndTokensWithoutScopesAreRefused() async throws {
        let store = try KioskStore(path: temporaryStorePath())
        let refused = ["", "till 3", "till/3", "tïll", "pos;rm", String(repeating: "a", count: 65)]
        for name in refused {
            await #expect(throws: TokenError.invalidName(name)) { try await store.addToken(name: name, scopes: [.read]) }
        }
        #expect(TokenError.invalidName("till 3").description.contains("1 to 64 letters, digits, dots, underscores or dashes"))
        for name in ["A.b_c-9", String(repeating: "z", count: 64)] {
            #expect(try await store.addToken(name: name, scopes: [.read]).token.name == name)
        }
        await #expect(throws: TokenError.noScopes) { try await store.addToken(name: "empty", scopes: []) }
        #expect(try await store.tokens().count == 2)
    }

    @Test func eachScopeIncludesTheNarrowerOnes() {
        let allowed: [TokenScope: Set<TokenScope>] = [.read: [.read], .print: [.read, .print], .admin: [.read, .print, .admin]]
        for held in TokenScope.allCases {
            for needed in TokenScope.allCases {
                #expect(held.allows(needed) == allowed[held]!.contains(needed), "\(held) allows \(needed)")
            }
        }
        let token = APIToken(id: 1, name: "pos", scopes: [.read, .print], createdAt: start, lastUsedAt: nil)
        #expect(token.allows(.read) && token.allows(.print) && !token.allows(.admin))
        #expect(!APIToken(id: 2, name: "none", scopes: [], createdAt: start, lastUsedAt: nil).allows(.read))
    }

    @Test func aScopeThisVersionDoesNotKnowGivesNoRights() async throws {
        let store = try KioskStore(path: temporaryStorePath())
        let created = try await store.addToken(name: "pos", scopes: [.read])
        try await store.database.write { try $0.execute(sql: "UPDATE apiToken SET scopes = 'read,superuser'") }
        let token = try #require(try await store.authenticate(secret: created.secret))
        #expect(token.scopes == [.read] && !token.allows(.print))
    }
}

/// The SQL a connection ran, collected from GRDB's trace (called on the connection's queue).
final class StatementLog: @unchecked Sendable {
    private let lock = NSLock()
    private var collected: [String] = []

    func append(_ statement: String) { lock.withLock { collected.append(statement) } }
    var statements: [String] { lock.withLock { collected } }
    var count: Int { statements.count }
}
