package import Foundation
package import PrintModel

/// The table of saved printers by role, shared by `printers list` and `kioskprint-demo`.
package enum AssignmentTable {
    package static func render(_ assignments: [RoleAssignment]) -> String {
        var table = TextTable("ROLE", "RANK", "ID", "NAME", "KINDS", "LAST STATE", "LAST CONTACT", "PIN (SHA-256)", "URI")
        for assignment in assignments {
            let printer = assignment.printer
            table.add(assignment.role.name, assignment.rank, String(printer.id), printer.name,
                      printer.capabilities.kinds.listing, printer.capabilities.state.rawValue,
                      printer.contactedAt.shortDescription, PinText.short(printer.certificatePin, of: printer),
                      printer.uri)
        }
        return table.render() + rawLines(assignments.map(\.printer).map { ($0.name, $0.capabilities) })
            + PinText.unpinnedNote(assignments.map(\.printer))
    }

    /// One line per raw printer under a table (its model, language, dots,
    /// cutter and drawer), each printer once; empty when there is none.
    package static func rawLines(_ printers: [(name: String, capabilities: PrinterCapabilities)]) -> String {
        var seen: Set<String> = []
        let lines = printers.compactMap { printer -> String? in
            guard let profile = printer.capabilities.rawProfile, seen.insert(printer.name).inserted else { return nil }
            return "  \(printer.name) is raw: " + RawProfileView.summary(profile, drawerOpen: printer.capabilities.drawerOpen)
        }
        return lines.isEmpty ? "" : "\n\n" + lines.joined(separator: "\n")
    }
}

extension Date {
    /// `2026-11-22 04:31`, local time.
    package var shortDescription: String {
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        return formatter.string(from: self)
    }
}
