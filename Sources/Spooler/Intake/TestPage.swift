public import Foundation
public import PrintModel

/// The built-in `test-page` template's data for a role's printer: what the
/// printer is, its paper and resolution, and where it cuts. `kioskprint
/// printers test` and the status page's button queue the same page.
public enum TestPage {
    public static let template = "test-page"

    public static func jobName(role: Role, printer: SavedPrinter) -> String {
        "Test page for \(role), \(printer.name)"
    }

    public static func dataJSON(role: Role, printer: SavedPrinter, at date: Date = Date()) -> String {
        let capabilities = printer.capabilities
        let paper: String
        if let roll = capabilities.rolls.first {
            paper = "\(roll.width) roll, \(roll.printableWidth) printable, cut from \(roll.cutLengths.lowerBound) to \(roll.cutLengths.upperBound)"
        } else {
            paper = capabilities.sheets.first.map { "\($0.label)" } ?? "unknown"
        }
        let data: [String: Any] = [
            "role": role.description,
            "printer": ["name": printer.name, "model": capabilities.makeAndModel, "uri": printer.uri],
            "paper": paper,
            "resolution": capabilities.resolutions.native.map(\.description) ?? "unknown",
            "printed": date.formatted(date: .numeric, time: .shortened),
            "cut": capabilities.hasRoll ? "1 mm below the last line (the content plus the margins)" : "at the end of the sheet",
            "ruler": Array(repeating: [String: String](), count: 10),
        ]
        let json = (try? JSONSerialization.data(withJSONObject: data, options: [.sortedKeys])) ?? Data("{}".utf8)
        return String(decoding: json, as: UTF8.self)
    }
}
