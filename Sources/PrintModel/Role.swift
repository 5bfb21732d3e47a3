import Foundation

/// A role a printer plays at the kiosk: `receipt`, `coupon`, `boarding-pass`...
///
/// Roles are free names chosen by the administrator. The built-in ones know
/// which job kinds they accept, so a label printer cannot be saved as the
/// receipt printer by mistake. A role holds an ordered list of printers: the
/// primary first, then its backups.
public struct Role: Hashable, Codable, Sendable, CustomStringConvertible {
    public var name: String

    public init(_ name: String) throws(RoleError) {
        let trimmed = name.trimmingCharacters(in: .whitespaces).lowercased()
        guard !trimmed.isEmpty,
              trimmed.count <= 64,
              trimmed.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }),
              trimmed.first!.isLetter || trimmed.first!.isNumber
        else { throw RoleError.invalidName(name) }
        self.name = trimmed
    }

    public var description: String { name }

    /// The job kinds a printer must have (any one of them) to serve this role.
    /// Empty for a role KioskPrint does not know: any printer may serve it.
    public var acceptedKinds: Set<JobKind> { Role.builtIn[name] ?? [] }

    /// True for the roles KioskPrint ships templates for.
    public var isBuiltIn: Bool { Role.builtIn[name] != nil }

    /// Whether a printer of these kinds can serve the role.
    public func accepts(_ kinds: Set<JobKind>) -> Bool {
        acceptedKinds.isEmpty || !acceptedKinds.isDisjoint(with: kinds)
    }

    /// The built-in roles and the kinds they accept.
    public static let builtIn: [String: Set<JobKind>] = [
        "receipt": [.receipt, .roll],
        "coupon": [.receipt, .roll],
        "label": [.label],
        "boarding-pass": [.roll, .receipt, .label],
        "bag-tag": [.label, .roll],
    ]
}

/// Why a role name was refused.
public enum RoleError: Error, Equatable, CustomStringConvertible {
    case invalidName(String)

    public var description: String {
        switch self {
        case .invalidName(let name):
            "'\(name)' is not a usable role name: use letters, digits, '-' and '_' (for example receipt, boarding-pass)."
        }
    }
}
