import PrintModel
import Synchronization

/// The trouble last reported per role and printer, so that a condition is
/// reported once when it starts and once when it ends, not on every retry.
/// Shared by the runners of every role: one printer may serve several.
final class TroubleBook: Sendable {
    private let state = Mutex<[String: PrinterProblem]>([:])

    /// Records `problem`; true when it is new for this printer (report it).
    func note(_ problem: PrinterProblem, role: Role, printer: JobPrinter) -> Bool {
        state.withLock { known in
            let key = "\(role)|\(printer.uri)"
            defer { known[key] = problem }
            return known[key]?.reasons != problem.reasons
        }
    }

    /// Clears the trouble; true when there was some (report the recovery).
    func clear(role: Role, printer: JobPrinter) -> Bool {
        state.withLock { $0.removeValue(forKey: "\(role)|\(printer.uri)") != nil }
    }
}
