import PrintModel
import Synchronization

/// The trouble last reported per role and printer, so that a condition is
/// reported once when it starts and once when it ends, not on every retry.
/// Shared by the runners of every role: one printer may serve several.
final class TroubleBook: Sendable {
    private let state = Mutex<[String: PrinterProblem]>([:])
    private let warnings = Mutex<[String: [String]]>([:])

    /// Records `problem`; true when it is new for this printer (report it).
    func note(_ problem: PrinterProblem, role: Role, printer: JobPrinter) -> Bool {
        state.withLock { known in
            let key = "\(role)|\(printer.uri)"
            defer { known[key] = problem }
            return known[key]?.reasons != problem.reasons
        }
    }

    /// Records the warnings a ready printer gives; returns them when they
    /// changed and are not empty (report them), so paper near its end is
    /// said once, not before every receipt.
    func newWarnings(_ current: [String], role: Role, printer: JobPrinter) -> [String]? {
        warnings.withLock { known in
            let key = "\(role)|\(printer.uri)"
            defer { known[key] = current }
            return known[key, default: []] != current && !current.isEmpty ? current : nil
        }
    }

    /// What is known now of each printer the runners talked to, keyed
    /// `role|uri`: its trouble (nil when none) and its last warnings (nil
    /// when it has not been ready since the agent started).
    func snapshot() -> [String: (trouble: [String]?, warnings: [String]?)] {
        let troubles = state.withLock { $0.mapValues(\.reasons) }
        let warned = warnings.withLock { $0 }
        var known: [String: (trouble: [String]?, warnings: [String]?)] = [:]
        for key in Set(troubles.keys).union(warned.keys) { known[key] = (troubles[key], warned[key]) }
        return known
    }

    /// Clears the trouble; true when there was some (report the recovery).
    func clear(role: Role, printer: JobPrinter) -> Bool {
        state.withLock { $0.removeValue(forKey: "\(role)|\(printer.uri)") != nil }
    }
}
