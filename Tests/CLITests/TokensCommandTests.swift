import Foundation
import Store
import Testing

/// `kioskprint tokens add | list | revoke`, run through the real binary on a
/// real database: the secret shown once and working, never listed, and
/// mistakes refused with what to do.
@Suite struct TokensCommandTests {
    let database = FileManager.default.temporaryDirectory
        .appendingPathComponent("kioskprint-tokens-\(UUID().uuidString)/kioskprint.sqlite").path
    var kioskprint: CommandRunner { CommandRunner(environment: ["KIOSKPRINT_DATABASE": database]) }

    /// The secret `tokens add` printed: kp_ and 43 base64url characters.
    func printedSecret(in output: String) throws -> String {
        let match = try #require(output.firstMatch(of: /kp_[A-Za-z0-9_-]{43}/), "no secret in: \(output)")
        return String(match.output)
    }

    @Test func addShowsTheSecretOnceWithHowToUseItAndTheSecretWorks() async throws {
        let added = try await kioskprint.run(["tokens", "add", "pos-till-3", "--scope", "print", "--scope", "read"])
        #expect(added.status == 0, "\(added.errors)")
        let secret = try printedSecret(in: added.output)
        #expect(added.output.contains("cannot be shown again"), "\(added.output)")
        #expect(added.output.contains("Authorization: Bearer \(secret)"), "\(added.output)")
        #expect(added.output.contains("scopes: print, read"), "\(added.output)")

        let token = try #require(try await KioskStore(path: database).authenticate(secret: secret))
        #expect(token.name == "pos-till-3" && token.scopes == [.print, .read])
    }

    @Test func listShowsNamesScopesAndDatesButNeverASecretOrHash() async throws {
        let missing = try await kioskprint.run(["tokens", "list"])
        #expect(missing.status == 1 && missing.errors.contains("There is no database at \(database)"), "\(missing.errors)")
        _ = try KioskStore(path: database)
        let empty = try await kioskprint.run(["tokens", "list"])
        #expect(empty.status == 0 && empty.output.contains("No API tokens. Create one with: kioskprint tokens add"), "\(empty.output)")

        let till = try printedSecret(in: try await kioskprint.run(["tokens", "add", "till", "--scope", "print"]).output)
        let monitorAdded = try await kioskprint.run(["tokens", "add", "monitor", "--scope", "read", "--database", database])
        let monitor = try printedSecret(in: monitorAdded.output)
        _ = try await KioskStore(path: database).authenticate(secret: till)

        let listed = try await kioskprint.run(["tokens", "list"])
        #expect(listed.status == 0, "\(listed.errors)")
        let lines = listed.output.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("NAME") == true && lines.first?.contains("LAST USED") == true, "\(listed.output)")
        #expect(lines.count == 3, "\(listed.output)")
        #expect(lines[1].hasPrefix("monitor") && lines[1].contains("read") && lines[1].hasSuffix("never"), "\(listed.output)")
        #expect(lines[2].hasPrefix("till") && lines[2].contains("print") && !lines[2].hasSuffix("never"), "\(listed.output)")

        let json = try await kioskprint.run(["tokens", "list", "--json"])
        #expect(json.status == 0, "\(json.errors)")
        let tokens = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [[String: Any]])
        #expect(tokens.map { $0["name"] as? String } == ["monitor", "till"])
        #expect(tokens.map { $0["scopes"] as? [String] } == [["read"], ["print"]])
        #expect(tokens[0]["lastUsedAt"] == nil && tokens[1]["lastUsedAt"] is String)
        #expect(tokens.allSatisfy { Set($0.keys) == ["name", "scopes", "createdAt"] || Set($0.keys) == ["name", "scopes", "createdAt", "lastUsedAt"] })

        for secret in [till, monitor] {
            let body = String(secret.dropFirst(3))
            #expect(!listed.output.contains(body) && !json.output.contains(body))
        }
        // Nor their hashes, 64 hex digits.
        #expect(listed.output.firstMatch(of: /[0-9a-f]{64}/) == nil && json.output.firstMatch(of: /[0-9a-f]{64}/) == nil)
    }

    @Test func revokeStopsTheSecretAndAnUnknownNameExitsOneWithWhatToDo() async throws {
        let secret = try printedSecret(in: try await kioskprint.run(["tokens", "add", "pos", "--scope", "admin"]).output)
        let revoked = try await kioskprint.run(["tokens", "revoke", "pos"])
        #expect(revoked.status == 0, "\(revoked.errors)")
        #expect(revoked.output.contains("Revoked the token pos"), "\(revoked.output)")
        #expect(try await KioskStore(path: database).authenticate(secret: secret) == nil)

        let again = try await kioskprint.run(["tokens", "revoke", "pos"])
        #expect(again.status == 1, "\(again.output)")
        #expect(again.errors.contains("There is no token named 'pos'. See the tokens with: kioskprint tokens list"), "\(again.errors)")
    }

    @Test func aNameTakenABadNameOrScopeAndNoScopeAreRefusedWithWhatToDo() async throws {
        #expect(try await kioskprint.run(["tokens", "add", "pos", "--scope", "read"]).status == 0)

        let taken = try await kioskprint.run(["tokens", "add", "pos", "--scope", "admin"])
        #expect(taken.status == 1, "\(taken.output)")
        #expect(taken.errors.contains("A token named 'pos' already exists. Revoke it first (kioskprint tokens revoke pos) or pick another name."),
                "\(taken.errors)")
        #expect(taken.output.firstMatch(of: /kp_/) == nil)

        let badName = try await kioskprint.run(["tokens", "add", "till 3", "--scope", "read"])
        #expect(badName.status != 0 && badName.errors.contains("The token name 'till 3' is not accepted"), "\(badName.errors)")
        let badScope = try await kioskprint.run(["tokens", "add", "till", "--scope", "write"])
        #expect(badScope.status != 0 && badScope.errors.contains("'write'") && badScope.errors.contains("admin"), "\(badScope.errors)")
        let noScope = try await kioskprint.run(["tokens", "add", "till"])
        #expect(noScope.status != 0 && noScope.errors.contains("at least one --scope"), "\(noScope.errors)")

        // Only the first token was made, with its first scope.
        let tokens = try await KioskStore(path: database).tokens()
        #expect(tokens.map(\.name) == ["pos"] && tokens.first?.scopes == [.read])
    }
}
