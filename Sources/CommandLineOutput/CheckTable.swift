import PrintModel
package import Setup

/// The result of contacting the saved printers, shared by `printers check` and `kioskprint-demo`.
package enum CheckTable {
    package static func render(_ results: [RoleSetup.Checked]) -> String {
        var table = TextTable("ROLE", "RANK", "NAME", "STATE", "PIN (SHA-256)", "URI")
        var problems: [String] = []
        var raw: [(name: String, capabilities: PrinterCapabilities)] = []
        for checked in results {
            let assignment = checked.assignment
            let state: String
            switch checked.result {
            case .success(let capabilities):
                raw.append((assignment.printer.name, capabilities))
                let reasons = capabilities.stateReasons.map(\.keyword).filter { $0 != "none" }
                state = capabilities.state.rawValue + (reasons.isEmpty ? "" : " (\(reasons.joined(separator: ", ")))")
                if !checked.isReady {
                    problems.append("\(assignment.printer.name) needs attention: \(state).")
                }
            case .failure(let error):
                raw.append((assignment.printer.name, assignment.printer.capabilities))
                state = PinText.failedState(error)
                problems.append(error.description)
            }
            if checked.pinnedNow, let pin = checked.pin {
                problems.append("Pinned the TLS certificate of \(assignment.printer.name) now, at its first check since "
                    + "it was saved without one: SHA-256 \(pin.hex). Compare it with the printer's own status page; "
                    + "from now on KioskPrint sends nothing to it while it presents another.")
            }
            table.add(assignment.role.name, assignment.rank, assignment.printer.name, state,
                      PinText.short(checked.pin, of: assignment.printer), assignment.printer.uri)
        }
        // One printer in two roles fails (or is pinned) once, not twice.
        let unique = Array(Set(problems)).sorted()
        return table.render() + AssignmentTable.rawLines(raw) + (unique.isEmpty ? "" : "\n\n" + unique.joined(separator: "\n"))
    }
}
