import Foundation
import PrintModel

/// The table of saved printers by role, shared by `printers list` and `demo`.
enum AssignmentTable {
    static func render(_ assignments: [RoleAssignment]) -> String {
        var table = TextTable("ROLE", "RANK", "ID", "NAME", "KINDS", "LAST STATE", "LAST CONTACT", "URI")
        for assignment in assignments {
            let printer = assignment.printer
            table.add(assignment.role.name, assignment.rank, String(printer.id), printer.name,
                      printer.capabilities.kinds.listing, printer.capabilities.state.rawValue,
                      printer.contactedAt.shortDescription, printer.uri)
        }
        return table.render()
    }
}

extension Date {
    /// `2026-11-22 04:31`, local time.
    var shortDescription: String {
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        return formatter.string(from: self)
    }
}
