/// What happens to a job whose fate is unknown: the connection broke while
/// it was being sent, or the agent stopped mid-send, and the printer keeps
/// no job list to ask (a raw printer), or forgot the job it had (restarted).
/// It may be on paper, partly or wholly, or not at all.
public enum UnknownFateRule: String, Codable, Sendable, CaseIterable, CustomStringConvertible {
    /// Print it again with a visible REPRINT line, so a second copy is never
    /// taken for a second sale. Right for receipts and labels: a missing
    /// receipt is worse than a marked duplicate.
    case reprintMarked = "reprint-marked"
    /// Set it aside (`held`) until an operator looks at the printer and
    /// sends it again (`kioskprint jobs retry`) or cancels it. Right for
    /// anything worth money twice: coupons, boarding passes.
    case hold

    /// The rule a role follows unless the configuration names one: `hold`
    /// for coupons and boarding passes, `reprint-marked` for the rest.
    public static func defaultRule(for role: Role) -> UnknownFateRule {
        ["coupon", "boarding-pass"].contains(role.name) ? .hold : .reprintMarked
    }

    public var description: String { rawValue }
}
