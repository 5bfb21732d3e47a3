/// A measurement that could not be taken, in words for the person running the bench.
public struct BenchError: Error, CustomStringConvertible {
    /// What went wrong, and where it helps, what to do about it.
    public let description: String
    public init(_ description: String) { self.description = description }
}
