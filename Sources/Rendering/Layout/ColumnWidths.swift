/// How a row's columns share the printable width, in dots.
///
/// Fixed columns take their width first, automatic ones their text's natural
/// (unwrapped) width, and fractions share what is left in proportion. The
/// order matters on narrow paper: a price column must never be squeezed by a
/// long item name, so the name (usually `1fr`) is what wraps.
enum ColumnWidths {
    /// A column's claim on the width.
    enum Claim: Equatable {
        case fixed(Int)
        case natural(Int)
        case fraction(Double)
    }

    /// Widths for `claims` across `available` dots with `gap` dots between
    /// neighbours. When fixed and automatic columns alone overflow, the later
    /// ones are cut to what is left (possibly 0) and `overflows` is true.
    static func distribute(_ claims: [Claim], available: Int, gap: Int) -> (widths: [Int], overflows: Bool) {
        guard !claims.isEmpty else { return ([], false) }
        let gaps = gap * (claims.count - 1)
        var widths = claims.map { claim -> Int in
            switch claim {
            case .fixed(let dots), .natural(let dots): max(0, dots)
            case .fraction: 0
            }
        }
        let rest = available - gaps - widths.reduce(0, +)
        let shares = claims.map { claim -> Double in
            if case .fraction(let share) = claim { max(0, share) } else { 0 }
        }
        let totalShare = shares.reduce(0, +)
        if rest > 0, totalShare > 0 {
            // Floor each share, then give the dots lost to rounding to the
            // last fraction column, so the row spans the width exactly.
            var given = 0, last = -1
            for (index, share) in shares.enumerated() where share > 0 {
                widths[index] = Int(Double(rest) * share / totalShare)
                given += widths[index]; last = index
            }
            widths[last] += rest - given
        }
        // Clamp from the left so no column runs past the right edge.
        var x = 0, overflows = rest < 0
        for index in widths.indices {
            let room = max(0, available - x)
            if widths[index] > room { widths[index] = room; overflows = true }
            x += widths[index] + gap
        }
        return (widths, overflows)
    }
}
