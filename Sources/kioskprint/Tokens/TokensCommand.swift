public import ArgumentParser
import CommandLineOutput
import Foundation
public import Store

/// `kioskprint tokens ...`: the bearer tokens that let a POS application use the agent's HTTP API.
struct TokensCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tokens",
        abstract: "Create, list and revoke the tokens that let applications use the agent's HTTP API.",
        discussion: """
        Scopes: read sees jobs, printers, templates, events and metrics; print adds submitting jobs, \
        canceling or retrying its own jobs and rendering previews; admin may do everything, \
        test pages and any job's retry or cancel included.
        """,
        subcommands: [AddTokenCommand.self, ListTokensCommand.self, RevokeTokenCommand.self],
        defaultSubcommand: ListTokensCommand.self)
}

extension TokenScope: ExpressibleByArgument {}

/// `kioskprint tokens add NAME --scope SCOPE [--scope SCOPE ...]`.
struct AddTokenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add", abstract: "Create a token and show its secret, once.")

    @Argument(help: "A name for it, such as the till or application that uses it: 1 to 64 of A-Z, a-z, 0-9, '.', '_' and '-'.")
    var name: String

    @Option(name: .customLong("scope"), help: ArgumentHelp(
        "What it may do: read, print or admin (each includes the ones before it); repeat for several.",
        valueName: "scope"))
    var scopes: [TokenScope] = []

    @OptionGroup var database: DatabaseOptions

    func validate() throws {
        // Said before the database is opened, in the words of a usage error.
        do { try APIToken.validateName(name) } catch { throw ValidationError(error.description) }
        if scopes.isEmpty { throw ValidationError("Give the token at least one --scope: read, print or admin.") }
    }

    func run() async throws {
        let store = try database.open()
        let created = try await CLIError.wrapAsync { try await store.addToken(name: name, scopes: Set(scopes)) }
        print("""
            Created the token \(created.token.name) (scopes: \(TokenText.scopes(created.token.scopes))). Its secret:

              \(created.secret)

            It cannot be shown again: only a hash of it is kept. Copy it into the application's settings now;
            if it is lost, revoke the token (kioskprint tokens revoke \(created.token.name)) and add a new one.
            The application sends it with every request to the agent's API, in the header:

              Authorization: Bearer \(created.secret)
            """)
    }
}

/// `kioskprint tokens [list] [--json]`.
struct ListTokensCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "The tokens, by name: scopes, when created and last used (never their secrets).")

    @Flag(help: "Print JSON instead of a table.")
    var json = false

    @OptionGroup var database: DatabaseOptions

    func run() async throws {
        let tokens = try await database.openExisting().tokens()
        if json {
            print(try JSONOutput.encode(tokens.map(TokenJSON.init)))
            return
        }
        guard !tokens.isEmpty else {
            print("No API tokens. Create one with: kioskprint tokens add NAME --scope print")
            return
        }
        var table = TextTable("NAME", "SCOPES", "CREATED", "LAST USED")
        for token in tokens {
            table.add(token.name, TokenText.scopes(token.scopes), token.createdAt.shortDescription,
                      token.lastUsedAt?.shortDescription ?? "never")
        }
        print(table.render())
    }
}

/// `kioskprint tokens revoke NAME`.
struct RevokeTokenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "revoke", abstract: "Delete a token: requests carrying its secret are refused from then on.")

    @Argument(help: "The token's name, as `kioskprint tokens list` shows it.")
    var name: String

    @OptionGroup var database: DatabaseOptions

    func run() async throws {
        guard try await database.openExisting().revokeToken(named: name) else {
            throw CLIError("There is no token named '\(name)'. See the tokens with: kioskprint tokens list")
        }
        print("Revoked the token \(name): requests carrying its secret are refused from now on.")
    }
}

/// A token as `tokens list --json` prints it: no secret, no hash.
struct TokenJSON: Encodable {
    var name: String
    /// Sorted: `["print", "read"]`.
    var scopes: [String]
    var createdAt: Date
    /// Absent when the token was never used.
    var lastUsedAt: Date?

    init(_ token: APIToken) {
        name = token.name
        scopes = token.scopes.map(\.rawValue).sorted()
        createdAt = token.createdAt
        lastUsedAt = token.lastUsedAt
    }
}

/// Tokens in words, shared by the table and the messages.
enum TokenText {
    /// `print, read`: sorted, so the same token always reads the same.
    static func scopes(_ scopes: Set<TokenScope>) -> String {
        scopes.map(\.rawValue).sorted().joined(separator: ", ")
    }
}
