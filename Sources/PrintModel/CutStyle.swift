/// How a receipt printer's knife cuts the paper.
public enum CutStyle: String, Codable, Sendable, CaseIterable, CustomStringConvertible {
    /// A hinge of paper is left at one point, so the receipt hangs from the
    /// printer until it is taken: the usual choice at a till.
    case partial
    /// Right through: the piece drops, as a kiosk's tickets and coupons should.
    case full

    public var description: String { rawValue }
}
