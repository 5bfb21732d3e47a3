public import Foundation

/// What a bearer token of the agent's HTTP API may do. Each scope includes
/// the ones below it: `admin` ⊇ `print` ⊇ `read` (see ``allows(_:)``), so a
/// token needs only its widest scope.
public enum TokenScope: String, CaseIterable, Sendable, Codable {
    /// Submit jobs, cancel or retry the jobs it submitted, and render
    /// previews; and everything `read` may.
    case print
    /// See jobs, printers, templates, events and metrics; change nothing.
    case read
    /// Everything: `print` and `read`, test pages, and retrying or canceling
    /// any job, whoever submitted it.
    case admin

    /// Whether a token holding this scope may do what needs `needed`.
    public func allows(_ needed: TokenScope) -> Bool { rank >= needed.rank }

    /// The place in the hierarchy: a wider scope has a higher rank.
    private var rank: Int {
        switch self {
        case .read: 0
        case .print: 1
        case .admin: 2
        }
    }
}

/// A saved API token, as the administrator and the HTTP server see it. It
/// never holds the secret: the database keeps only the secret's SHA-256.
public struct APIToken: Sendable, Hashable {
    public var id: Int64
    /// The administrator's name for it (say, the till or the application
    /// that uses it): 1 to 64 of A-Z, a-z, 0-9, `.`, `_` and `-`.
    public var name: String
    public var scopes: Set<TokenScope>
    public var createdAt: Date
    /// The last request it authenticated, to the minute (nil: never used).
    /// Updated at most once a minute, so a busy POS does not write the
    /// database at every request.
    public var lastUsedAt: Date?

    public init(id: Int64, name: String, scopes: Set<TokenScope>, createdAt: Date, lastUsedAt: Date?) {
        self.id = id
        self.name = name
        self.scopes = scopes
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
    }

    /// Whether one of its scopes allows what needs `needed`.
    public func allows(_ needed: TokenScope) -> Bool { scopes.contains { $0.allows(needed) } }

    /// The longest name accepted.
    public static let maximumNameLength = 64

    /// Throws ``TokenError/invalidName(_:)`` unless `name` is 1 to 64 of
    /// A-Z, a-z, 0-9, `.`, `_` and `-`. The set is narrow so that a name is
    /// safe to show in a table, a log line or a shell command unquoted.
    public static func validateName(_ name: String) throws(TokenError) {
        let allowed = name.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-"): true
            default: false
            }
        }
        guard allowed, (1...maximumNameLength).contains(name.utf8.count) else { throw TokenError.invalidName(name) }
    }
}

/// A token just created, with its secret. The secret exists only here: show
/// it to the administrator once; it cannot be read back from the database.
public struct NewToken: Sendable, CustomStringConvertible {
    public var token: APIToken
    /// `kp_` and 43 characters: 32 random bytes in base64url without padding.
    public var secret: String

    public init(token: APIToken, secret: String) {
        self.token = token
        self.secret = secret
    }

    /// The token without its secret, so that logging a `NewToken` by
    /// mistake does not write the secret into a journal.
    public var description: String { "NewToken(\(token.name), scopes: \(token.scopes.map(\.rawValue).sorted()))" }
}

/// Why a token could not be created. Each message says what to do.
public enum TokenError: Error, CustomStringConvertible, Equatable {
    case invalidName(String)
    case nameTaken(String)
    case noScopes

    public var description: String {
        switch self {
        case .invalidName(let name):
            "The token name '\(name)' is not accepted: use 1 to \(APIToken.maximumNameLength) letters, digits, "
                + "dots, underscores or dashes (for example pos-till-3)."
        case .nameTaken(let name):
            "A token named '\(name)' already exists. Revoke it first (kioskprint tokens revoke \(name)) "
                + "or pick another name."
        case .noScopes:
            "A token needs at least one scope: read, print or admin."
        }
    }
}
