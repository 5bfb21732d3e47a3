import PrintModel
import Setup

/// The result of contacting the saved printers, shared by `printers check` and `demo`.
enum CheckTable {
    static func render(_ results: [RoleSetup.Checked]) -> String {
        var table = TextTable("ROLE", "RANK", "NAME", "STATE", "URI")
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
                state = "unreachable"
                problems.append(error.description)
            }
            table.add(assignment.role.name, assignment.rank, assignment.printer.name, state, assignment.printer.uri)
        }
        // One printer in two roles fails once, not twice.
        let unique = Array(Set(problems)).sorted()
        return table.render() + AssignmentTable.rawLines(raw) + (unique.isEmpty ? "" : "\n\n" + unique.joined(separator: "\n"))
    }
}
