/// The number of a job in the queue, as the database gave it out. Job ids only
/// grow and are never reused, so an id names one job for the life of the
/// database (`kioskprint jobs cancel 12`).
public struct JobID: RawRepresentable, Hashable, Comparable, Codable, Sendable,
                     ExpressibleByIntegerLiteral, LosslessStringConvertible {
    public var rawValue: Int64

    public init(rawValue: Int64) { self.rawValue = rawValue }
    public init(_ rawValue: Int64) { self.rawValue = rawValue }
    public init(integerLiteral value: Int64) { self.rawValue = value }

    /// Parses `12` (as an operator types it); nil for anything else.
    public init?(_ description: String) {
        guard let value = Int64(description), value > 0 else { return nil }
        rawValue = value
    }

    public var description: String { String(rawValue) }

    public static func < (lhs: JobID, rhs: JobID) -> Bool { lhs.rawValue < rhs.rawValue }

    // Encoded as a bare number, so JSON output reads `"id": 12`.
    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(Int64.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
