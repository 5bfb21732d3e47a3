/// A plain text table: a header row and left-aligned columns two spaces apart.
/// Plain ASCII so it reads the same in a terminal, a log and an ssh session.
package struct TextTable {
    package var headers: [String]
    package var rows: [[String]] = []

    package init(_ headers: String...) { self.headers = headers }

    package mutating func add(_ cells: String...) { rows.append(cells) }
    package mutating func add(_ cells: [String]) { rows.append(cells) }

    package func render(indent: String = "") -> String {
        let all = [headers] + rows
        let widths = headers.indices.map { column in all.map { $0.indices.contains(column) ? $0[column].count : 0 }.max() ?? 0 }
        return all.map { row in
            let line = row.enumerated().map { index, cell in
                index == row.count - 1 ? cell : cell.padding(toLength: widths[index], withPad: " ", startingAt: 0)
            }.joined(separator: "  ")
            return indent + line
        }.joined(separator: "\n")
    }
}

extension String {
    fileprivate func padding(toLength length: Int, withPad pad: Character, startingAt _: Int) -> String {
        count >= length ? self : self + String(repeating: pad, count: length - count)
    }
}
