/// "Did you mean": the known word nearest a misspelt one, for messages
/// about template markup, the agent's configuration and printer models alike.
public enum Spelling {
    /// The candidate within `limit` edits of `word` (case ignored), the
    /// nearest first; nil when none is that close.
    public static func nearest(to word: String, among candidates: some Collection<String>, within limit: Int = 2) -> String? {
        let word = word.lowercased()
        return candidates.map { ($0, distance(word, $0.lowercased())) }.filter { $0.1 <= limit }.min { $0.1 < $1.1 }?.0
    }

    /// Levenshtein distance: insertions, deletions and substitutions.
    public static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
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
