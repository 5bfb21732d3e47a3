package import Setup

/// The sentences that confirm a saved printer, shared by `add` and `pick`.
package enum AssignmentReport {
    package static func saved(_ added: RoleSetup.Added) -> String {
        let assignment = added.assignment
        var text = "Saved \(assignment.printer.name) (\(assignment.printer.uri)) as the \(assignment.rank) printer for the role '\(assignment.role)'."
        if let replaced = added.replaced {
            text += "\nIt replaces \(replaced.name) (\(replaced.uri)), which no longer serves '\(assignment.role)'."
        }
        if let pin = assignment.printer.certificatePin {
            text += "\nIts TLS certificate is pinned: SHA-256 \(pin.hex). KioskPrint sends nothing to it while it "
                + "presents another."
            if let old = added.replacedPin {
                text += " (It had presented SHA-256 \(old.hex) before; that pin is replaced.)"
            }
        }
        return text
    }
}
