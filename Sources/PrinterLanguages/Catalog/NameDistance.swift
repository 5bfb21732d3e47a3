/// How far apart two model names are, for "did you mean" lists. Kept here
/// rather than shared with Templates' spelling helper: PrinterLanguages
/// depends on PrintModel alone.
enum NameDistance {
    /// Levenshtein distance: insertions, deletions and substitutions.
    static func edits(_ a: [Character], _ b: [Character]) -> Int {
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}
