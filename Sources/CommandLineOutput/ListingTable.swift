import PrintModel
package import Setup

/// The table of found printers shared by `discover`, `pick` and `kioskprint-demo`.
package enum ListingTable {
    package static func render(_ printers: [PrinterListing], numbered: Bool = false) -> String {
        guard !printers.isEmpty else { return numbered ? "  (none yet)" : "No printers found." }
        var table = numbered ? TextTable("#", "NAME", "LOCATION", "MAKE AND MODEL", "KINDS", "STATE", "URI")
                             : TextTable("NAME", "LOCATION", "MAKE AND MODEL", "KINDS", "STATE", "URI")
        // The picker keeps the order printers appeared in, so numbers stay put;
        // a one-off listing reads best by name.
        let ordered = numbered ? printers : printers.sorted {
            ($0.name.lowercased(), $0.uri) < ($1.name.lowercased(), $1.uri)
        }
        for printer in ordered {
            var cells = [printer.name, printer.location.isEmpty ? "-" : printer.location,
                         printer.makeAndModel.isEmpty ? "-" : printer.makeAndModel,
                         kindsCell(printer), printer.stateSummary, printer.uri]
            if numbered { cells.insert(String(printer.number), at: 0) }
            table.add(cells)
        }
        return table.render(indent: numbered ? "  " : "")
    }

    /// `receipt, roll`, or `roll, receipt (inferred)` when the printer did not say.
    package static func kindsCell(_ printer: PrinterListing) -> String {
        guard let kinds = printer.kinds else { return "?" }
        let inferred = printer.capabilities?.kindsSource == .inferred
        return kinds.listing + (inferred ? " (inferred)" : "")
    }
}
