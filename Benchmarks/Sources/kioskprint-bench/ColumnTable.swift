/// A plain table of figures: the first column left-aligned, the rest
/// right-aligned, as a reader compares numbers down a column.
struct ColumnTable {
    let header: [String]
    var rows: [[String]] = []

    init(_ header: String...) { self.header = header }

    mutating func add(_ cells: String...) { rows.append(cells) }

    /// The rule, as wide as the table, for the caller's own lines under it.
    var rule: String { widths.map { String(repeating: "-", count: $0) }.joined(separator: "-+-") }

    /// The header, a rule, and the rows.
    func render() -> [String] { [format(header), rule] + rows.map(format) }

    private var widths: [Int] {
        header.indices.map { column in ([header] + rows).map { $0.indices.contains(column) ? $0[column].count : 0 }.max() ?? 0 }
    }

    private func format(_ row: [String]) -> String {
        zip(row, widths).enumerated().map { index, cell in
            let pad = String(repeating: " ", count: max(0, cell.1 - cell.0.count))
            return index == 0 ? cell.0 + pad : pad + cell.0
        }.joined(separator: " | ")
    }
}
