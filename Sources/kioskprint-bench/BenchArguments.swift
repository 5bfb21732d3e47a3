import Foundation

/// The bench's few options, read by hand until it moves to ArgumentParser.
enum BenchArguments {
    /// The whole number after `flag` (e.g. `--rounds 10`), or `fallback`
    /// without it; a missing or non-positive value ends the bench with usage (64).
    static func positiveCount(_ flag: String, in arguments: [String], default fallback: Int, command: String) -> Int {
        guard let index = arguments.firstIndex(of: flag) else { return fallback }
        guard let count = arguments.dropFirst(index + 1).first.flatMap({ Int($0) }), count > 0 else {
            FileHandle.standardError.write(Data(("kioskprint-bench \(command): \(flag) takes a whole number above 0, "
                + "e.g. \(flag) \(fallback).\n").utf8))
            exit(64)
        }
        return count
    }
}
