import Foundation

/// The one table the benchmark prints: each KioskPrint figure beside the
/// figure of the tool a person would otherwise use, in plain ASCII columns
/// so it pastes into an issue or a terminal log unchanged.
struct BenchTable {
    /// One measured figure and its alternative.
    struct Row {
        var measure: String
        var kioskPrint: String
        var alternative: String
        var alternativeFigure: String
        var note: String
    }

    private enum Line {
        case section(String)
        case row(Row)
    }

    private var lines: [Line] = []
    /// Longer explanations, printed under the table and referred to as [n].
    private(set) var footnotes: [String] = []

    /// Starts a group of rows under a title line.
    mutating func section(_ title: String) { lines.append(.section(title)) }

    mutating func add(_ row: Row) { lines.append(.row(row)) }

    mutating func add(_ measure: String, _ kioskPrint: String, _ alternative: String, _ alternativeFigure: String,
                      note: String = "") {
        add(Row(measure: measure, kioskPrint: kioskPrint, alternative: alternative,
                alternativeFigure: alternativeFigure, note: note))
    }

    /// Adds a footnote and returns its marker, `[n]`, for a note cell.
    mutating func footnote(_ text: String) -> String {
        footnotes.append(text)
        return "[\(footnotes.count)]"
    }

    func render() -> String {
        let header = Row(measure: "measure", kioskPrint: "KioskPrint", alternative: "alternative",
                         alternativeFigure: "alternative figure", note: "note")
        let rows = [header] + lines.compactMap { if case .row(let row) = $0 { row } else { nil } }
        let widths = [\Row.measure, \.kioskPrint, \.alternative, \.alternativeFigure].map { path in
            rows.map { $0[keyPath: path].count }.max() ?? 0
        }
        func format(_ row: Row) -> String {
            let cells = [row.measure, row.kioskPrint, row.alternative, row.alternativeFigure]
            let padded = zip(cells, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }
            return (padded + [row.note]).joined(separator: " | ")
        }
        let rule = widths.map { String(repeating: "-", count: $0) }.joined(separator: "-+-") + "-+-----"
        var output = [format(header), rule]
        for line in lines {
            switch line {
            case .section(let title): output.append(title)
            case .row(let row): output.append(format(row))
            }
        }
        output.append(rule)
        output += footnotes.enumerated().map { "[\($0.offset + 1)] \($0.element)" }
        return output.joined(separator: "\n")
    }
}
