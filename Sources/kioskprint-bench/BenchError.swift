/// A measurement that could not be taken, in words for the person running the bench.
struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
